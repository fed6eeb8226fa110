// Cases through the API, for specs that need a case in some state without walking
// the screens that lead there. The steps (register, charge, submit, assign, diagnose,
// publish) take a token; the set-ups (assignedCase, diagnosedCase, publishedCase)
// take demo usernames and compose the steps, each starting from a case of its own.
import { createHash } from 'node:crypto';
import { apiLogin, baseURL, call, findUser, ok, unique, type Lang } from './api';

const userIds = new Map<string, number>();

/** The id of a demo user, looked up once as admin. */
export async function userId(username: string): Promise<number> {
  if (!userIds.has(username)) {
    const u = await findUser(await apiLogin('admin'), username);
    if (!u) throw new Error(`no user ${username}`);
    userIds.set(username, u.id);
  }
  return userIds.get(username)!;
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

/** A few bytes the server accepts as an upload (it is not a viewable slide). */
export const tinySlide = () => Buffer.from(`not really a slide ${Date.now()} ${Math.random()}`);

/** Uploads a slide file with tus (create, then one PATCH) and returns the slide's id. */
export async function uploadSlide(token: string, data: Buffer, filename: string): Promise<number> {
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
    body: new Uint8Array(data),
  });
  if (patched.status !== 204) throw new Error(`tus patch → ${patched.status}: ${await patched.text()}`);
  const id = Number(patched.headers.get('slide-id'));
  if (!id) throw new Error('the finished upload named no slide');
  return id;
}

interface SlideRow {
  id: number;
  status: number;
  viewable: number;
  format: string;
  mpp: number;
  error?: string;
}

/**
 * Uploads a copy of one of the site's viewable SVS slides with a known scale (a demo
 * slide or a copy of one) and waits until the server has checked it. Other walks
 * upload slides of their own at the same time (a generic TIFF without microns per
 * pixel, for one), so the newest viewable slide is not necessarily one a walk can
 * measure on.
 */
export async function viewableSlide(token: string, filename = `${unique('E2E')}-HE.svs`): Promise<number> {
  const rows = (await call<SlideRow[]>('GET', '/api/slides/uploads?page=1&page_size=50', { token })).body.data ?? [];
  const source = rows.find((r) => r.status === 1 && r.viewable === 1 && r.format === 'svs' && r.mpp > 0);
  if (!source) throw new Error('the site has no viewable slide to copy');
  const link = await ok<{ url: string }>('GET', `/api/slides/${source.id}/download`, token);
  const id = await uploadSlide(token, Buffer.from(await (await fetch(baseURL() + link.url)).arrayBuffer()), filename);
  for (let i = 0; i < 240; i++) {
    const s = await ok<SlideRow>('GET', `/api/slides/${id}`, token);
    if (s.status === 1 && s.viewable === 1) return id;
    if (s.status === 3) throw new Error(`slide ${id} failed its checks: ${s.error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`slide ${id} was not processed in time`);
}

export interface NewCase {
  id: number;
  consult_no: string;
  pathology_number: string;
  patient_name: string;
}

/**
 * Registers a case as the site user, with a fresh slide named after its number unless
 * slide_ids is given. Without a pathology_number it takes the library's next one and,
 * as a spec running beside this one may take it first, retries with the next.
 */
export async function registerCase(token: string, f: CaseFixture, over: Record<string, unknown> = {}): Promise<NewCase> {
  for (let attempt = 0; ; attempt++) {
    const number = (over.pathology_number as string) ?? (await nextNumber(token, f.libraryId));
    const slides = over.slide_ids ?? [await uploadSlide(token, tinySlide(), `${number}.svs`)];
    const r = await call<NewCase>('POST', '/api/consultation', { token, body: registration(f, number, { ...over, slide_ids: slides }) });
    if (r.status < 300) return r.body.data!;
    if (attempt >= 5 || over.pathology_number || !r.body.errors?.pathology_number) throw new Error(`POST /api/consultation → ${r.status}: ${JSON.stringify(r.body)}`);
  }
}

export const chargeCase = (token: string, id: number, itemId: number, quantity = 1) =>
  ok('POST', `/api/consultation/charge/${id}`, token, { items: [{ item_id: itemId, quantity }] });
export const submitCase = (token: string, id: number) => ok('POST', `/api/consultation/submit/${id}`, token);
export const bindExpert = (token: string, id: number, expertId: number) => ok('POST', `/api/distribute/${id}/bindexpert`, token, { expert_id: expertId });
export const recallCase = (token: string, id: number, reason: string) => ok('POST', `/api/consultation/recall/${id}`, token, { reason });

/** Registers, charges and submits a case as the site user; it waits in the center's "to allot" list. */
export async function submittedCase(siteToken: string, f: CaseFixture, over: Record<string, unknown> = {}): Promise<NewCase> {
  const c = await registerCase(siteToken, f, over);
  await chargeCase(siteToken, c.id, f.chargeItemId);
  await submitCase(siteToken, c.id);
  return c;
}

export interface DiagnosisText {
  /** A frozen case's intra-operative verdict. */
  frozen_verdict?: 'benign' | 'malignant' | 'deferred';
  microscopic?: string;
  opinion: string;
  gross_description?: string;
  remark?: string;
}

/** The case's expert locks it and saves a diagnosis. */
export async function diagnose(expertToken: string, id: number, text: DiagnosisText): Promise<void> {
  await ok('POST', `/api/diagnosis/${id}/lock`, expertToken);
  await ok('POST', `/api/diagnosis/${id}/save`, expertToken, text);
}

/** The expert signs the saved diagnosis: released now, or after the hesitation period when delayed. */
export const publish = (expertToken: string, id: number, delayed = false) =>
  ok('POST', `/api/diagnosis/${id}/publish`, expertToken, { delayed, confirm_unviewed: true });

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

/** The case's report PDF as token's user sees it (the preview endpoint). */
export async function reportPDF(token: string, caseId: number, lang: Lang = 'zh-CN'): Promise<Buffer> {
  const res = await fetch(`${baseURL()}/api/diagnosis/report/preview/${caseId}`, { headers: { authorization: `Bearer ${token}`, 'user-language': lang } });
  if (res.status !== 200) throw new Error(`report preview → ${res.status}: ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

export interface CaseOptions {
  /** The patient's name. */
  patient?: string;
  /** The site user who registers the case (default site). */
  site?: string;
  /** The expert the allocator assigns it to (default expert). */
  expert?: string;
  /** Slides to attach; by default one fresh copy of a viewable demo slide. */
  slideIds?: number[];
}

export interface CreatedCase {
  id: number;
  consultNo: string;
  pathologyNumber: string;
  patient: string;
  slideIds: number[];
}

/** A case registered, charged and submitted by the site and assigned by the allocator to the expert. */
export async function assignedCase(opts: CaseOptions = {}): Promise<CreatedCase> {
  const site = await apiLogin(opts.site ?? 'site');
  const slideIds = opts.slideIds ?? [await viewableSlide(site)];
  const c = await submittedCase(site, await caseFixture(site), { slide_ids: slideIds, ...(opts.patient ? { name: opts.patient } : {}) });
  await bindExpert(await apiLogin('allocator'), c.id, await userId(opts.expert ?? 'expert'));
  return { id: c.id, consultNo: c.consult_no, pathologyNumber: c.pathology_number, patient: c.patient_name, slideIds };
}

export type DiagnosedOptions = CaseOptions & { diagnosis?: DiagnosisText };

/** An assigned case its expert has locked and saved a diagnosis of (not signed). */
export async function diagnosedCase(opts: DiagnosedOptions = {}): Promise<CreatedCase> {
  const c = await assignedCase(opts);
  await diagnose(await apiLogin(opts.expert ?? 'expert'), c.id, opts.diagnosis ?? { opinion: '（胃窦）慢性浅表性胃炎。' });
  return c;
}

/** A diagnosed case its expert has signed: released now, or after the hesitation period when delayed. */
export async function publishedCase(opts: DiagnosedOptions & { delayed?: boolean } = {}): Promise<CreatedCase> {
  const c = await diagnosedCase(opts);
  await publish(await apiLogin(opts.expert ?? 'expert'), c.id, opts.delayed);
  return c;
}
