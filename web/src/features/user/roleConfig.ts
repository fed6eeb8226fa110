// Per-role configuration is free JSON; the form edits it as text per selected role.
export type RoleConfigs = Record<string, Record<string, unknown>>;

export function configsToText(configs: RoleConfigs | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(configs ?? {}).map(([r, c]) => [r, Object.keys(c ?? {}).length ? JSON.stringify(c, null, 2) : '']));
}

/** Parses the texts of the selected roles; empty text means `{}`. Throws on invalid JSON. */
export function textToConfigs(roles: string[], texts: Record<string, string | undefined>): RoleConfigs {
  const out: RoleConfigs = {};
  for (const r of roles) {
    const raw = texts[r]?.trim();
    out[r] = raw ? parseObject(raw) : {};
  }
  return out;
}

export function parseObject(raw: string): Record<string, unknown> {
  const v: unknown = JSON.parse(raw);
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
  return v as Record<string, unknown>;
}

export function isJsonObjectText(raw: string | undefined): boolean {
  if (!raw?.trim()) return true;
  try {
    parseObject(raw);
    return true;
  } catch {
    return false;
  }
}
