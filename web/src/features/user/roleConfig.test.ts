import { describe, expect, it } from 'vitest';
import { configsFromRecord, configsToBody } from './roleConfig';

describe('role config', () => {
  it('reads stored configurations with defaults', () => {
    expect(configsFromRecord({ expert: { subspecialties: [3, 'x'] }, site: { site_id: 7 } })).toEqual({
      expert: { subspecialties: [3], takes_cases: true },
      allocator: { center_ids: [] },
      site: { site_id: 7 },
    });
    expect(configsFromRecord(undefined).expert?.takes_cases).toBe(true);
    expect(configsFromRecord({ expert: { takes_cases: false } }).expert?.takes_cases).toBe(false);
  });
  it('sends only the granted roles, within the user centers and hospitals', () => {
    const v = { expert: { subspecialties: [1, 2], takes_cases: false }, allocator: { center_ids: [1, 9] }, site: { site_id: 5 } };
    expect(configsToBody(['expert', 'admin'], v, [1], [5])).toEqual({ expert: { subspecialties: [1, 2], takes_cases: false } });
    expect(configsToBody(['allocator', 'site'], v, [1], [6])).toEqual({ allocator: { center_ids: [1] }, site: {} });
  });
});
