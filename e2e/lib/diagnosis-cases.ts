// Setting up cases through the API, as the site, the allocator and the experts would,
// so that a spec about one step starts from a case of its own in the right state.
import { apiLogin, baseURL, call, findUser, unique } from './api';

async function ok<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const r = await call<T>(method, path, { token, body });
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
}

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

interface SlideRow {
  id: number;
  status: number;
  viewable: number;
  consult_id: number | null;
  error?: string;
}

/**
 * Uploads a real slide as `site` through the tus endpoint, as the upload page does: the
 * bytes are those of one of the demo slides of the site's hospital. Waits until the
 * server has checked it (status uploaded, viewable) and returns its id.
 */
export async function uploadSlide(site = 'site', name = `${unique('E2E')}-HE.svs`): Promise<number> {
  const token = await apiLogin(site);
  const rows = (await call<SlideRow[]>('GET', '/api/slides/uploads?page=1&page_size=50', { token })).body.data ?? [];
  const source = rows.find((r) => r.status === 1 && r.viewable === 1);
  if (!source) throw new Error(`${site} has no viewable slide to copy`);
  const link = await ok<{ url: string }>('GET', `/api/slides/${source.id}/download`, token);
  const bytes = Buffer.from(await (await fetch(baseURL() + link.url)).arrayBuffer());

  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const tus = { 'Tus-Resumable': '1.0.0', authorization: `Bearer ${token}` };
  const created = await fetch(`${baseURL()}/api/uploads/`, {
    method: 'POST',
    headers: { ...tus, 'Upload-Length': String(bytes.length), 'Upload-Metadata': `filename ${b64(name)}` },
  });
  if (created.status !== 201) throw new Error(`tus create → ${created.status}: ${await created.text()}`);
  const location = new URL(created.headers.get('location')!, baseURL()).toString();
  const patched = await fetch(location, {
    method: 'PATCH',
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  if (patched.status !== 204) throw new Error(`tus patch → ${patched.status}: ${await patched.text()}`);
  const id = Number(patched.headers.get('slide-id'));
  if (!id) throw new Error('the finished upload named no slide');
  for (let i = 0; i < 240; i++) {
    const s = await ok<SlideRow>('GET', `/api/slides/${id}`, token);
    if (s.status === 1 && s.viewable === 1) return id;
    if (s.status === 3) throw new Error(`slide ${id} failed its checks: ${s.error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`slide ${id} was not processed in time`);
}

export interface CaseOptions {
  /** The patient's name (Chinese by default). */
  patient?: string;
  /** The site that registers the case. */
  site?: string;
  /** The expert the allocator assigns it to; null leaves it unassigned. */
  expert?: string | null;
  /** Slides to attach (uploaded by the site); by default one fresh upload. */
  slideIds?: number[];
  clinicalDiagnosis?: string;
}

export interface CreatedCase {
  id: number;
  consultNo: string;
  pathologyNumber: string;
  patient: string;
  slideIds: number[];
}

/** Registers, charges and submits a case as the site (library BL) and returns it. */
export async function submittedCase(opts: CaseOptions = {}): Promise<CreatedCase> {
  const site = await apiLogin(opts.site ?? 'site');
  const info = await ok<{ hospitals: { id: number }[] }>('GET', '/api/auth/info', site);
  const hospital = await ok<{ center_ids: number[] }>('GET', `/api/hospital/${info.hospitals[0].id}`, site);
  const libs = await ok<{ id: number; prefix: string }[]>('GET', '/api/config/library?page=1&page_size=100', site);
  const library = libs.find((l) => l.prefix === 'BL') ?? libs[0];
  const items = await ok<{ id: number }[]>('GET', '/api/charge_item/lists?page=1&page_size=5', site);
  const slideIds = opts.slideIds ?? [await uploadSlide(opts.site ?? 'site')];
  const patient = opts.patient ?? '林雨桐';
  // The library's next number; a spec running beside this one may take it first, so retry.
  let saved: { id: number; consult_no: string } | undefined;
  let pathologyNumber = '';
  for (let attempt = 0; !saved; attempt++) {
    pathologyNumber = (await ok<{ number: string }>('GET', `/api/config/library/${library.id}/next_number`, site)).number;
    const r = await call<{ id: number; consult_no: string }>('POST', '/api/consultation', { token: site, body: registration(pathologyNumber) });
    if (r.status < 300) saved = r.body.data;
    else if (attempt >= 5 || !r.body.errors?.pathology_number) throw new Error(`POST /api/consultation → ${r.status}: ${JSON.stringify(r.body)}`);
  }
  await ok('POST', `/api/consultation/charge/${saved.id}`, site, { items: [{ item_id: items[0].id, quantity: 1 }] });
  await ok('POST', `/api/consultation/submit/${saved.id}`, site);
  return { id: saved.id, consultNo: saved.consult_no, pathologyNumber, patient, slideIds };

  function registration(pathology_number: string) {
    return {
      pathology_number, original_pathology_number: 'Y2026-0451', library_id: library.id,
      name: patient, age: '52', gender: 'female', phone: '13800138000', id_number: '11010519491231002X',
      inspection_hospital: '明州市第一人民医院', inspection_date: '2026-11-01', center_id: hospital.center_ids[0],
      clinical_diagnosis: opts.clinicalDiagnosis ?? '胃窦溃疡，待排恶性',
      specimens: [{ name: '胃窦', blocks: [{ name: 'A1' }, { name: 'A2' }] }],
      slide_ids: slideIds,
    };
  }
}

/** A submitted case the allocator has assigned to `expert` (default: expert). */
export async function assignedCase(opts: CaseOptions = {}): Promise<CreatedCase> {
  const c = await submittedCase(opts);
  const expert = opts.expert === undefined ? 'expert' : opts.expert;
  if (expert) await ok('POST', `/api/distribute/${c.id}/bindexpert`, await apiLogin('allocator'), { expert_id: await userId(expert) });
  return c;
}

/** Locks the case and saves a diagnosis as its expert (setup for later steps). */
export async function diagnosedCase(opts: CaseOptions & { opinion?: string } = {}): Promise<CreatedCase> {
  const c = await assignedCase(opts);
  const token = await apiLogin(opts.expert ?? 'expert');
  await ok('POST', `/api/diagnosis/${c.id}/lock`, token);
  await ok('POST', `/api/diagnosis/${c.id}/save`, token, { opinion: opts.opinion ?? '（胃窦）慢性浅表性胃炎。' });
  return c;
}
