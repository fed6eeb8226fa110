// Talking to the API directly (for setup and for expectations), as a script would:
// captcha, RSA-OAEP password encryption, bearer token, user-language header.
import { constants, publicEncrypt } from 'node:crypto';

export const PASSWORD = 'Telepath@2026';
/** The answer fixed by TELEPATH_CAPTCHA_TEST_ANSWER in global setup. */
export const CAPTCHA = '2468';

export function baseURL(): string {
  const url = process.env.TELEPATH_E2E_URL;
  if (!url) throw new Error('TELEPATH_E2E_URL is not set: the global setup did not run');
  return url;
}

export type Lang = 'zh-CN' | 'en-US';

export interface ApiResult<T = unknown> {
  status: number;
  body: { data?: T; message?: string; errors?: Record<string, string[]> } & Record<string, unknown>;
}

export async function call<T = unknown>(method: string, path: string, opts: { token?: string; body?: unknown; lang?: Lang } = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { 'user-language': opts.lang ?? 'zh-CN' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseURL() + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: ApiResult<T>['body'] = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { message: text };
  }
  return { status: res.status, body };
}

async function data<T>(method: string, path: string, opts: Parameters<typeof call>[2] = {}): Promise<T> {
  const r = await call<T>(method, path, opts);
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

/** A call as token's user that must succeed; its data. */
export const ok = <T = unknown>(method: string, path: string, token: string, body?: unknown, lang?: Lang) => data<T>(method, path, { token, body, lang });

/** Changes system settings (spec 2 §3) as the administrator, keeping the others. */
export async function setSystemSettings(over: Record<string, unknown>): Promise<void> {
  const admin = await apiLogin('admin');
  const cur = await ok<Record<string, unknown>>('GET', '/api/config/setting', admin);
  const keep = ['language', 'page_title', 'page_icon', 'title', 'copyright', 'captcha_enable', 'need_upload_slide', 'watermark'];
  await ok('PUT', '/api/config/setting', admin, { ...Object.fromEntries(keep.map((k) => [k, cur[k]])), ...over });
}

let publicKey: string | undefined;

/** RSA-OAEP (SHA-256), base64 — what the browser sends as the password. */
export async function encryptPassword(password: string): Promise<string> {
  publicKey ??= (await data<{ public_key: string }>('GET', '/api/auth/public_key')).public_key;
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
}

/** Signs in through the API (with the test captcha) and returns the bearer token. */
export async function apiLogin(username: string, password = PASSWORD): Promise<string> {
  const captcha = await data<{ key: string }>('GET', '/api/common/captcha');
  const session = await data<{ token: string }>('POST', '/api/auth/login', {
    body: { username, password: await encryptPassword(password), captcha_key: captcha.key, captcha_code: CAPTCHA },
  });
  return session.token;
}

export async function apiLogout(token: string): Promise<void> {
  await call('POST', '/api/auth/logout', { token });
}

export interface MenuEntry {
  name: string;
  en_name?: string;
  uri: string;
  is_show?: string;
  menu?: boolean;
  children?: MenuEntry[];
}

export const menu = (token: string) => data<MenuEntry[]>('GET', '/api/menu', { token });

/** The names the sidebar should show for a menu tree: visible entries, groups and their children. */
export function visibleMenuNames(entries: MenuEntry[], lang: Lang = 'zh-CN'): string[] {
  const out: string[] = [];
  for (const m of entries) {
    if (m.is_show === '0' || m.menu === false) continue;
    out.push(lang === 'en-US' ? m.en_name || m.name : m.name);
    out.push(...visibleMenuNames((m.children ?? []).filter((c) => c.is_show !== '0'), lang));
  }
  return out;
}

export interface ListPage<T> {
  data: T[];
  meta?: { pagination?: { total: number } };
}

/** GET a list endpoint with list parameters (params/constraints as JSON text). */
export async function list<T>(token: string, path: string, query: Record<string, string | number> = {}): Promise<ListPage<T>> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const r = await call<T[]>('GET', `${path}?${qs}`, { token });
  if (r.status >= 300) throw new Error(`GET ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as unknown as ListPage<T>;
}

export interface UserRow {
  id: number;
  username: string;
  roles?: string[];
  is_locked?: boolean;
  hospital_ids?: number[];
  hospitals?: { id: number; name: string }[];
}

export async function findUser(token: string, username: string): Promise<UserRow | undefined> {
  const page = await list<UserRow>(token, '/api/user', { page: 1, page_size: 50, search: username });
  return page.data.find((u) => u.username === username);
}

/** A name unique to this run, so tests can be re-run against the same server. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** Every integration setting of a hospital (the server wants them all). */
export const FULL_SITE_INFO = {
  hisname: '', hisport: '', hisip: '', islocalhost: 0, directexp: 0, reportmode: '', interfacemode: '', organizationcode: '',
  network_protocol: 'http', isshowunit: 0, uploader: '', caseinterface: '', clsuse: 0, uploadinterface: '', ulsuse: 0,
  reportinterface: '', is_test: 0, rlsuse: 0, his_code: '', upload_protocol: 'http', upload_host: 'localhost', upload_port: 8001,
  mq_host: '', mq_port: 0, monitor_dir: '',
};

/** Creates a hospital through the API (setup for tests about something else); returns its id. */
export async function createHospital(token: string, name: string, code: string, centerIds: number[] = [1]): Promise<number> {
  const h = await data<{ id: number }>('POST', '/api/hospital/add', {
    token,
    body: { name, abbreviation: name.slice(0, 8), code, public_ip: '198.51.100.20', port: 443, center_ids: centerIds, storage_mode: 0, expert_select: 1, status: 1, site_info: FULL_SITE_INFO },
  });
  return h.id;
}
