import { describe, expect, it } from 'vitest';
import { tabToOutcome } from './api';

describe('audit tab → outcome', () => {
  it('turns failure/denied tabs into an outcome filter and drops "all"', () => {
    expect(tabToOutcome({ page: 1, page_size: 20, params: '{"tab":"denied","username":"a"}' })).toEqual({ page: 1, page_size: 20, params: '{"username":"a","outcome":"denied"}' });
    expect(tabToOutcome({ page: 1, page_size: 20, params: '{"tab":"all"}' })).toEqual({ page: 1, page_size: 20 });
    expect(tabToOutcome({ page: 2, page_size: 20 })).toEqual({ page: 2, page_size: 20 });
  });
});
