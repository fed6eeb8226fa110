// Tree rows (spec 1 §4: tables support tree rows): rows whose parent is on the same
// page are nested under it as `children`; the others stay at the top level.
export function nestRows<T extends object>(rows: T[], idKey: keyof T, parentKey: keyof T): (T & { children?: T[] })[] {
  const byId = new Map<unknown, T & { children?: T[] }>();
  for (const r of rows) byId.set(r[idKey], { ...r });
  const top: (T & { children?: T[] })[] = [];
  for (const r of rows) {
    const node = byId.get(r[idKey])!;
    const parent = r[parentKey] === null || r[parentKey] === undefined ? undefined : byId.get(r[parentKey]);
    if (parent && parent !== node) (parent.children ??= []).push(node);
    else top.push(node);
  }
  return top;
}
