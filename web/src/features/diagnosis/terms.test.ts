import { describe, expect, it } from 'vitest';
import { ALL_CATEGORIES, filterTerms, insertAtCaret, termCategories } from './terms';

describe('insertAtCaret', () => {
  it('inserts at the caret and puts the caret after the text', () => {
    expect(insertAtCaret('乳腺癌，切缘阴性', 4, 4, '浸润性导管癌')).toEqual({ value: '乳腺癌，浸润性导管癌切缘阴性', caret: 10 });
  });
  it('replaces the selection', () => {
    expect(insertAtCaret('Ki-67 约 20%', 6, 7, '阳性率约')).toEqual({ value: 'Ki-67 阳性率约 20%', caret: 10 });
  });
  it('inserts at the start and into an empty value', () => {
    expect(insertAtCaret('abc', 0, 0, 'x')).toEqual({ value: 'xabc', caret: 1 });
    expect(insertAtCaret('', 0, 0, '建议结合临床')).toEqual({ value: '建议结合临床', caret: 6 });
  });
  it('clamps a selection outside the value to its end', () => {
    expect(insertAtCaret('abc', 7, 9, 'x')).toEqual({ value: 'abcx', caret: 4 });
    expect(insertAtCaret('abc', -2, 1, 'x')).toEqual({ value: 'xbc', caret: 1 });
    expect(insertAtCaret('abc', 2, 1, 'x')).toEqual({ value: 'abxc', caret: 3 });
  });
});

const terms = [
  { id: 1, category: '乳腺', text: '浸润性导管癌' },
  { id: 2, category: '乳腺', text: '导管原位癌' },
  { id: 3, category: '胃肠', text: '管状腺癌，中分化' },
  { id: 4, category: '', text: 'Ki-67 阳性率约 %' },
  { id: 5, category: '通用', text: '切缘未见癌累及' },
];
const ids = (l: { id: number }[]) => l.map((x) => x.id);

describe('filterTerms', () => {
  it('keeps everything without a query', () => {
    expect(ids(filterTerms(terms, '  '))).toEqual([1, 2, 3, 4, 5]);
  });
  it('filters by category, including terms without one', () => {
    expect(ids(filterTerms(terms, '', '乳腺'))).toEqual([1, 2]);
    expect(ids(filterTerms(terms, '', ''))).toEqual([4]);
    expect(ids(filterTerms(terms, '', ALL_CATEGORIES))).toEqual([1, 2, 3, 4, 5]);
  });
  it('matches text or category ignoring case, those starting with the query first', () => {
    expect(ids(filterTerms(terms, 'ki-67'))).toEqual([4]);
    expect(ids(filterTerms(terms, '胃肠'))).toEqual([3]);
    expect(ids(filterTerms(terms, '导管'))).toEqual([2, 1]);
    expect(ids(filterTerms(terms, '癌', '乳腺'))).toEqual([1, 2]);
    expect(ids(filterTerms(terms, '癌', '通用'))).toEqual([5]);
    expect(filterTerms(terms, '淋巴结')).toEqual([]);
  });
});

describe('termCategories', () => {
  it('lists each category once in order', () => {
    expect(termCategories(terms)).toEqual(['乳腺', '胃肠', '', '通用']);
  });
});
