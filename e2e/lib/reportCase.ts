// Setup for report tests: a case registered, charged and submitted by `site`,
// assigned by `allocator` to `expert`, diagnosed and published — all through
// the API, as a script would. Self-contained: uses only lib/api.
import { apiLogin, baseURL, call, findUser, list } from './api';

async function ok<T>(r: Promise<{ status: number; body: { data?: T } & Record<string, unknown> }>, what: string): Promise<T> {
  const res = await r;
  if (res.status >= 300) throw new Error(`${what} → ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

/** Uploads a small not-viewable slide file (tus, one PATCH) as token's user; returns the slide id once processed. */
export async function uploadSlide(token: string, filename: string): Promise<number> {
  const bytes = Buffer.from(`telepath e2e slide ${filename} ${Date.now()}`);
  const meta = `filename ${Buffer.from(filename).toString('base64')}`;
  const head = { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${token}` };
  const created = await fetch(`${baseURL()}/api/uploads/`, { method: 'POST', headers: { ...head, 'Upload-Length': String(bytes.length), 'Upload-Metadata': meta } });
  const loc = created.headers.get('location');
  if (created.status !== 201 || !loc) throw new Error(`tus create → ${created.status}`);
  const patched = await fetch(new URL(loc, baseURL()), { method: 'PATCH', headers: { ...head, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes });
  const id = Number(patched.headers.get('slide-id'));
  if (patched.status !== 204 || !id) throw new Error(`tus patch → ${patched.status}`);
  for (let i = 0; i < 200; i++) {
    const s = await ok<{ status: number }>(call('GET', `/api/slides/${id}`, { token }), 'slide');
    if (s.status !== 0 && s.status !== 2) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slide ${id} still processing`);
}

export interface PublishedCase {
  id: number;
  pathologyNumber: string;
  patient: string;
}

export interface DiagnosisText {
  microscopic?: string;
  opinion: string;
  gross_description?: string;
  remark?: string;
}

/** A routine case of `site`'s hospital (the library's next free pathology number) with the given diagnosis, published by `expert`. */
export async function publishedCase(patient: string, diagnosis: DiagnosisText): Promise<PublishedCase> {
  const [site, alloc, expert, admin] = await Promise.all(['site', 'allocator', 'expert', 'admin'].map((u) => apiLogin(u)));
  const info = await ok<{ hospitals?: { id: number; name: string }[]; centers?: { id: number }[] }>(call('GET', '/api/auth/info', { token: site }), 'auth info');
  const libs = await list<{ id: number; prefix: string; parent_id: number | null }>(site, '/api/config/library', { page: 1, page_size: 100 });
  const lib = libs.data.find((l) => l.prefix === 'BL' && !l.parent_id);
  const items = await list<{ id: number }>(site, '/api/charge_item/lists', { page: 1, page_size: 1 });
  const expertUser = await findUser(admin, 'expert');
  const centers = await list<{ id: number; code: string }>(admin, '/api/center/list', { page: 1, page_size: 100 });
  const center = centers.data.find((c) => c.code === 'EC');
  if (!lib || !expertUser || !center || !items.data[0]) throw new Error('demo data missing (library BL, expert, center EC, charge item)');
  const pathologyNumber = (await ok<{ number: string }>(call('GET', `/api/config/library/${lib.id}/next_number`, { token: site }), 'next number')).number;
  const slide = await uploadSlide(site, `${pathologyNumber}-HE.kfb`);
  const c = await ok<{ id: number }>(call('POST', '/api/consultation', {
    token: site,
    body: {
      pathology_number: pathologyNumber, original_pathology_number: `Y-${pathologyNumber}`, library_id: lib.id,
      name: patient, age: '52', gender: 'female', phone: '13800138000', inspection_hospital: info.hospitals?.[0]?.name ?? '',
      inspection_date: '2026-11-20', center_id: center.id, clinical_diagnosis: '胃窦溃疡，待排恶性',
      specimens: [{ name: '胃窦', blocks: [{ name: 'A1' }] }], slide_ids: [slide],
    },
  }), 'register');
  await ok(call('POST', `/api/consultation/charge/${c.id}`, { token: site, body: { items: [{ item_id: items.data[0].id, quantity: 1 }] } }), 'charge');
  await ok(call('POST', `/api/consultation/submit/${c.id}`, { token: site }), 'submit');
  await ok(call('POST', `/api/distribute/${c.id}/bindexpert`, { token: alloc, body: { expert_id: expertUser.id } }), 'assign');
  await ok(call('POST', `/api/diagnosis/${c.id}/lock`, { token: expert }), 'lock');
  await ok(call('POST', `/api/diagnosis/${c.id}/save`, { token: expert, body: diagnosis }), 'save');
  await ok(call('POST', `/api/diagnosis/${c.id}/publish`, { token: expert, body: { confirm_unviewed: true } }), 'publish');
  return { id: c.id, pathologyNumber, patient };
}

/** The case's report PDF as `token`'s user sees it (the preview endpoint). */
export async function reportPDF(token: string, caseId: number, lang: 'zh-CN' | 'en-US' = 'zh-CN'): Promise<Buffer> {
  const res = await fetch(`${baseURL()}/api/diagnosis/report/preview/${caseId}`, { headers: { authorization: `Bearer ${token}`, 'user-language': lang } });
  if (res.status !== 200) throw new Error(`report preview → ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}
