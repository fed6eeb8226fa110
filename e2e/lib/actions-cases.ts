// Cases for the diagnosis-actions spec, set up through the API as the site,
// the allocator and the expert would (each test starts from a case of its own).
import { apiLogin, baseURL, call, findUser, unique } from './api';

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const r = await call<T>(method, path, { token, body });
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

const ids = new Map<string, number>();

/** The id of a demo user. */
export async function userIdOf(username: string): Promise<number> {
  if (!ids.has(username)) {
    const u = await findUser(await apiLogin('admin'), username);
    if (!u) throw new Error(`no user ${username}`);
    ids.set(username, u.id);
  }
  return ids.get(username)!;
}

interface SlideRow {
  id: number;
  status: number;
  viewable: number;
  error?: string;
}

/** Uploads (tus) a copy of one of the site's demo slides and waits until it is viewable. */
async function uploadSlide(token: string): Promise<number> {
  const rows = (await call<SlideRow[]>('GET', '/api/slides/uploads?page=1&page_size=50', { token })).body.data ?? [];
  const source = rows.find((r) => r.status === 1 && r.viewable === 1);
  if (!source) throw new Error('the site has no viewable slide to copy');
  const link = await ok<{ url: string }>('GET', `/api/slides/${source.id}/download`, token);
  const bytes = Buffer.from(await (await fetch(baseURL() + link.url)).arrayBuffer());
  const tus = { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${token}` };
  const name = Buffer.from(`${unique('ACT')}-HE.svs`).toString('base64');
  const created = await fetch(`${baseURL()}/api/uploads/`, { method: 'POST', headers: { ...tus, 'Upload-Length': String(bytes.length), 'Upload-Metadata': `filename ${name}` } });
  if (created.status !== 201) throw new Error(`tus create → ${created.status}`);
  const location = new URL(created.headers.get('location')!, baseURL()).toString();
  const patched = await fetch(location, { method: 'PATCH', headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes });
  if (patched.status !== 204) throw new Error(`tus patch → ${patched.status}`);
  const id = Number(patched.headers.get('slide-id'));
  for (let i = 0; i < 240; i++) {
    const s = await ok<SlideRow>('GET', `/api/slides/${id}`, token);
    if (s.status === 1 && s.viewable === 1) return id;
    if (s.status === 3) throw new Error(`slide ${id} failed its checks: ${s.error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`slide ${id} was not processed in time`);
}

export interface ActionCase {
  id: number;
  patient: string;
  slideId: number;
}

/** A case registered and submitted by `site` and assigned to `expert`. */
export async function assignedCase(patient: string, expert = 'expert'): Promise<ActionCase> {
  const site = await apiLogin('site');
  const info = await ok<{ hospitals: { id: number }[] }>('GET', '/api/auth/info', site);
  const hospital = await ok<{ center_ids: number[] }>('GET', `/api/hospital/${info.hospitals[0].id}`, site);
  const libs = await ok<{ id: number; prefix: string }[]>('GET', '/api/config/library?page=1&page_size=100', site);
  const library = libs.find((l) => l.prefix === 'BL') ?? libs[0];
  const items = await ok<{ id: number }[]>('GET', '/api/charge_item/lists?page=1&page_size=5', site);
  const slideId = await uploadSlide(site);
  let saved: { id: number } | undefined;
  for (let attempt = 0; !saved; attempt++) {
    const number = (await ok<{ number: string }>('GET', `/api/config/library/${library.id}/next_number`, site)).number;
    const r = await call<{ id: number }>('POST', '/api/consultation', {
      token: site,
      body: {
        pathology_number: number, original_pathology_number: 'Y2026-0777', library_id: library.id, name: patient, age: '58', gender: 'male',
        phone: '13800138000', id_number: '11010519491231002X', inspection_hospital: '明州市第一人民医院', inspection_date: '2026-11-02',
        center_id: hospital.center_ids[0], clinical_diagnosis: '胃体溃疡', specimens: [{ name: '胃体', blocks: [{ name: 'A1' }, { name: 'A2' }] }],
        slide_ids: [slideId],
      },
    });
    if (r.status < 300) saved = r.body.data;
    else if (attempt >= 5 || !r.body.errors?.pathology_number) throw new Error(`POST /api/consultation → ${r.status}: ${JSON.stringify(r.body)}`);
  }
  await ok('POST', `/api/consultation/charge/${saved.id}`, site, { items: [{ item_id: items[0].id, quantity: 1 }] });
  await ok('POST', `/api/consultation/submit/${saved.id}`, site);
  await ok('POST', `/api/distribute/${saved.id}/bindexpert`, await apiLogin('allocator'), { expert_id: await userIdOf(expert) });
  return { id: saved.id, patient, slideId };
}

/** The expert writes a diagnosis and signs it for release after the hesitation period (or now). */
export async function signedDelayed(c: ActionCase, expert = 'expert', delayed = true): Promise<void> {
  const token = await apiLogin(expert);
  await ok('POST', `/api/diagnosis/${c.id}/lock`, token);
  await ok('POST', `/api/diagnosis/${c.id}/save`, token, { microscopic: '胃体黏膜慢性炎。', opinion: '（胃体）慢性浅表性胃炎。' });
  await ok('POST', `/api/diagnosis/${c.id}/publish`, token, { delayed, confirm_unviewed: true });
}

export { ok };
