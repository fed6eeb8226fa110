// Cases through the API, for tests that need a case in some state without walking
// the screens that lead there: register, charge, submit, assign, recall, return,
// and slides uploaded with tus as the browser does.
import { createHash } from 'node:crypto';
import { call, type Lang } from './api';

async function ok<T>(method: string, path: string, token: string, body?: unknown, lang?: Lang): Promise<T> {
  const r = await call<T>(method, path, { token, body, lang });
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

/** What a registration refers to, for the site's hospital. */
export interface CaseFixture {
  hospitalId: number;
  hospitalName: string;
  libraryId: number;
  centerId: number;
  chargeItemId: number;
}

/** The first hospital of the signed-in site user, its first center, the routine library and a charge item. */
export async function caseFixture(siteToken: string): Promise<CaseFixture> {
  const info = await ok<{ hospitals: { id: number; name: string }[] }>('GET', '/api/auth/info', siteToken);
  const h = info.hospitals[0];
  const hospital = await ok<{ centers?: { id: number }[]; center_ids?: number[] }>('GET', `/api/hospital/${h.id}`, siteToken);
  const libs = await ok<{ id: number; prefix: string; status: number }[]>('GET', '/api/config/library?tree=true&page_size=1000', siteToken);
  const items = await ok<{ id: number }[]>('GET', '/api/charge_item/lists?page_size=10&params=' + encodeURIComponent('{"status":1}'), siteToken);
  return {
    hospitalId: h.id,
    hospitalName: h.name,
    libraryId: (libs.find((l) => l.prefix === 'BL' && l.status === 1) ?? libs[0]).id,
    centerId: hospital.centers?.[0]?.id ?? hospital.center_ids![0],
    chargeItemId: items[0].id,
  };
}

/** A free pathology number of the library, as the form's "next number" button gives. */
export const nextNumber = async (token: string, libraryId: number) => (await ok<{ number: string }>('GET', `/api/config/library/${libraryId}/next_number`, token)).number;

/** A resident ID number with its check digit (GB 11643) for a birthday (YYYYMMDD); an even last digit of seq is a woman. */
export function idNumber(birthday = '19810315', seq = '122'): string {
  const body = `110105${birthday}${seq}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, c, i) => s + Number(c) * w[i], 0);
  return body + '10X98765432'[sum % 11];
}

export interface NewCase {
  id: number;
  consult_no: string;
  pathology_number: string;
  patient_name: string;
}

/** A complete registration body; `over` replaces fields. */
export function registration(f: CaseFixture, number: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    library_id: f.libraryId,
    pathology_number: number,
    original_pathology_number: 'Y' + number.replace(/\D/g, ''),
    name: '测试患者',
    gender: 'female',
    age: '45',
    age_unit: 'year',
    phone: '13800138000',
    id_type: 'id_card',
    id_number: idNumber('19810315'),
    birthday: '1981-03-15',
    inspection_hospital: f.hospitalName,
    inspection_date: new Date().toISOString().slice(0, 10),
    clinical_diagnosis: '胃窦溃疡，待排恶性',
    center_id: f.centerId,
    specimens: [{ name: '胃窦', specimen_type: 'ex_specimen', blocks: [{ name: 'A1' }] }],
    ...over,
  };
}

/** Registers a case as the site user (with a fresh slide unless slide_ids is given). */
export async function registerCase(token: string, f: CaseFixture, over: Record<string, unknown> = {}): Promise<NewCase> {
  const number = (over.pathology_number as string) ?? (await nextNumber(token, f.libraryId));
  const slides = over.slide_ids ?? [await uploadSlide(token, tinySlide(), `${number}.svs`)];
  return ok<NewCase>('POST', '/api/consultation', token, registration(f, number, { ...over, slide_ids: slides }));
}

export const chargeCase = (token: string, id: number, itemId: number, quantity = 1) =>
  ok('POST', `/api/consultation/charge/${id}`, token, { items: [{ item_id: itemId, quantity }] });
export const submitCase = (token: string, id: number) => ok('POST', `/api/consultation/submit/${id}`, token);
export const bindExpert = (token: string, id: number, expertId: number) => ok('POST', `/api/distribute/${id}/bindexpert`, token, { expert_id: expertId });
export const recallCase = (token: string, id: number, reason: string) => ok('POST', `/api/consultation/recall/${id}`, token, { reason });
export const returnToSite = (token: string, id: number, reason: string) => ok('POST', `/api/distribute/${id}/return`, token, { reason });

/** Registers, charges and submits a case as the site user; it waits in the center's "to allot" list. */
export async function submittedCase(siteToken: string, f: CaseFixture, over: Record<string, unknown> = {}): Promise<NewCase> {
  const c = await registerCase(siteToken, f, over);
  await chargeCase(siteToken, c.id, f.chargeItemId);
  await submitCase(siteToken, c.id);
  return c;
}

export interface CaseView {
  id: number;
  consult_no: string;
  status_label: { key: string; label: string; color: string };
  expert_id: number | null;
  expert_name?: string | null;
  slide_count: number;
  return_reason?: string;
  specimens?: { name: string; blocks?: { name: string }[] }[];
  attachments?: { file_id: number; type: number; filename: string }[];
  slides?: { id: number; filename: string }[];
  charge_status: number;
}

export const getCase = (token: string, id: number) => ok<CaseView>('GET', `/api/consultation/resources/${id}`, token);

/** The experts of a center, as the allocator's dialog lists them. */
export const centerExperts = (token: string, centerId: number) =>
  ok<{ id: number; name: string; username?: string }[]>('GET', `/api/consultation/resources/0/exp_list/center?center_id=${centerId}`, token);

/** Finds a case of the caller by pathology number. */
export async function findCase(token: string, pathologyNumber: string): Promise<NewCase | undefined> {
  const r = await call<NewCase[]>('GET', `/api/consultation/list?search=${encodeURIComponent(pathologyNumber)}`, { token });
  return (r.body.data ?? []).find((c) => c.pathology_number === pathologyNumber);
}

/** A few bytes the server accepts as an upload (it is not a viewable slide). */
export const tinySlide = () => Buffer.from(`not really a slide ${Date.now()} ${Math.random()}`);

/** Uploads a slide file with tus (create, then one PATCH) and returns the slide's id. */
export async function uploadSlide(token: string, data: Buffer, filename: string): Promise<number> {
  const { baseURL } = await import('./api');
  const meta = (k: string, v: string) => `${k} ${Buffer.from(v).toString('base64')}`;
  const sha = createHash('sha256').update(data).digest('hex');
  const headers = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const created = await fetch(baseURL() + '/api/uploads/', {
    method: 'POST',
    headers: { ...headers, 'upload-length': String(data.length), 'upload-metadata': [meta('filename', filename), meta('sha256', sha)].join(',') },
  });
  if (created.status !== 201) throw new Error(`tus create → ${created.status}: ${await created.text()}`);
  const loc = new URL(created.headers.get('location')!, baseURL()).toString();
  const patched = await fetch(loc, {
    method: 'PATCH',
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: data,
  });
  if (patched.status !== 204) throw new Error(`tus patch → ${patched.status}: ${await patched.text()}`);
  return Number(patched.headers.get('slide-id'));
}
