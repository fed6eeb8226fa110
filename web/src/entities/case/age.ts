/** "45岁" / "3 mo": a patient's age with its unit (year when the unit is unknown); "—" without an age. */
export function ageText(t: (k: string) => string, age: number | null | undefined, unit: string | null | undefined): string {
  if (age === null || age === undefined) return '—';
  return `${age}${t(`case.ageUnit.${unit === 'month' || unit === 'day' ? unit : 'year'}`)}`;
}
