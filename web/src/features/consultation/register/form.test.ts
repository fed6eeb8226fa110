import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { bodyFromValues, libraryTree, toNamePath, valuesFromDetail, type Values } from './form';
import type { CaseDetail } from '../../../entities/case/api';
import type { Library } from '../api';

describe('registration form', () => {
  it('turns form values into the API body: dates as days, attachments by file, no empty members', () => {
    const v = { name: '孙嘉怡', birthday: dayjs('1981-03-15'), inspection_date: null, phone: undefined, attachments: [{ file_id: 7, type: 2, filename: 'a.pdf', size: 1, url: '/f/7' }] } as unknown as Values;
    expect(bodyFromValues(v)).toEqual({ name: '孙嘉怡', birthday: '1981-03-15', attachments: [{ file_id: 7, type: 2 }] });
  });

  it('fills the form from a saved case: its specimens and blocks, attachments and slides', () => {
    const d = {
      case: { name: '孙嘉怡', birthday: '1981-03-15T00:00:00Z' },
      age: 45,
      inspection_date: '2026-11-25',
      specimens: [{ name: '胃窦', part: '', specimen_type: '', count: 1, fixative: '', blocks: [{ name: 'A1', slide_number: '', draw_part: '', gross_description: '' }] }],
      attachments: [{ file_id: 7, type: 2, filename: 'a.pdf', size: 1, url: '/f/7' }],
      slides: [{ id: 3 }],
    } as unknown as CaseDetail;
    const v = valuesFromDetail(d);
    expect(v.age).toBe('45');
    expect(v.birthday?.format('YYYY-MM-DD')).toBe('1981-03-15');
    expect(v.inspection_date?.format('YYYY-MM-DD')).toBe('2026-11-25');
    expect(v.specimens?.[0]).toMatchObject({ name: '胃窦', specimen_type: 'ex_specimen', blocks: [{ name: 'A1' }] });
    expect(v.slide_ids).toEqual([3]);
    expect(v.attachments?.[0].file_id).toBe(7);
  });

  it('names nested fields as form paths, and offers enabled libraries only', () => {
    expect(toNamePath('specimens.0.blocks.1.name')).toEqual(['specimens', 0, 'blocks', 1, 'name']);
    const libs = [{ id: 1, name: '常规', status: 1, children: [{ id: 2, name: '冰冻', status: 0 }] }, { id: 3, name: '旧库', status: 0 }] as unknown as Library[];
    expect(libraryTree(libs)).toEqual([{ value: 1, title: '常规', children: [] }]);
  });
});

describe('infectious agents', () => {
  it('go with the infectious flag only', () => {
    expect(bodyFromValues({ infectious_specimen: true, infectious_agents: ['乙肝'] } as Values)).toEqual({ infectious_specimen: true, infectious_agents: ['乙肝'], attachments: [] });
    expect(bodyFromValues({ infectious_specimen: false, infectious_agents: ['乙肝'] } as Values)).toEqual({ infectious_specimen: false, attachments: [] });
  });
});
