// The registration form's values and their conversion from a saved case and to
// the API body (pure, unit-tested).
import dayjs, { type Dayjs } from 'dayjs';
import type { CaseDetail, CaseInput } from '../../../entities/case/api';
import type { Library } from '../api';
import type { AttachmentValue } from '../AttachmentField';

export type Values = Omit<CaseInput, 'birthday' | 'inspection_date' | 'last_menses' | 'attachments'> & {
  birthday?: Dayjs | null;
  inspection_date?: Dayjs | null;
  last_menses?: Dayjs | null;
  attachments?: AttachmentValue[];
};

export const DATE = 'YYYY-MM-DD';
const toDay = (s: string | null | undefined) => (s ? dayjs(s.slice(0, 10)) : null);
export const emptySpecimen = () => ({ name: '', specimen_type: 'ex_specimen' as const, blocks: [{ name: '' }] });

export interface TreeNode {
  value: number;
  title: string;
  children?: TreeNode[];
}

export function libraryTree(libs: Library[] | null | undefined): TreeNode[] {
  return (libs ?? []).filter((l) => l.status === 1).map((l) => ({ value: l.id, title: l.name, children: l.children?.length ? libraryTree(l.children) : undefined }));
}

/** Form values from a saved case (its stored form JSON plus attachments and slides). */
export function valuesFromDetail(d: CaseDetail): Values {
  const c = (d.case ?? {}) as Partial<CaseInput>;
  return {
    ...c,
    age: c.age ?? (d.age !== null ? String(d.age) : undefined),
    birthday: toDay(c.birthday),
    inspection_date: toDay(c.inspection_date ?? d.inspection_date),
    last_menses: toDay(c.last_menses),
    specimens: d.specimens?.length
      ? d.specimens.map((s) => ({ name: s.name, part: s.part, specimen_type: (s.specimen_type || 'ex_specimen') as 'ex_specimen', count: s.count, fixative: s.fixative, blocks: (s.blocks ?? []).map((b) => ({ name: b.name, slide_number: b.slide_number, draw_part: b.draw_part, gross_description: b.gross_description })) }))
      : c.specimens?.length
        ? c.specimens
        : [emptySpecimen()],
    attachments: (d.attachments ?? []).map((a) => ({ file_id: a.file_id, type: a.type, filename: a.filename, size: a.size, url: a.url })),
    slide_ids: (d.slides ?? []).map((s) => s.id),
  };
}

/** The API body from the form. */
export function bodyFromValues(v: Values): CaseInput {
  const fmt = (d: Dayjs | null | undefined) => (d ? d.format(DATE) : undefined);
  const { attachments, birthday, inspection_date, last_menses, ...rest } = v;
  const body: CaseInput = {
    ...rest,
    birthday: fmt(birthday),
    inspection_date: fmt(inspection_date),
    last_menses: fmt(last_menses),
    attachments: (attachments ?? []).map((a) => ({ file_id: a.file_id, type: a.type })),
  };
  // What an infectious specimen carries goes only with the flag.
  if (!body.infectious_specimen) delete body.infectious_agents;
  for (const k of Object.keys(body) as (keyof CaseInput)[]) if (body[k] === undefined || body[k] === null) delete body[k];
  return body;
}

/** "specimens.0.blocks.1.name" → ['specimens', 0, 'blocks', 1, 'name'] (list indexes are numbers in the form). */
export const toNamePath = (field: string) => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
