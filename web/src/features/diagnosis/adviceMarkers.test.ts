// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { duplicateMarkers, formatMarkerResults, initialRows, MAX_MARKER_ROWS, splitMarkers } from './adviceMarkers';

describe('splitMarkers', () => {
  it('splits on commas, 、, semicolons, slashes and spaces', () => {
    expect(splitMarkers('CK, CD20、Ki-67；PAS/CD3 CD5，TTF-1;Napsin A')).toEqual(['CK', 'CD20', 'Ki-67', 'PAS', 'CD3', 'CD5', 'TTF-1', 'Napsin', 'A']);
  });
  it('drops empty parts and repeats, keeping the first spelling', () => {
    expect(splitMarkers(' ,CK,, ck 、、 CD20 ')).toEqual(['CK', 'CD20']);
    expect(splitMarkers('  ')).toEqual([]);
  });
  it('keeps at most the rows the server accepts', () => {
    const many = Array.from({ length: 60 }, (_, i) => `M${i}`).join(',');
    expect(splitMarkers(many)).toHaveLength(MAX_MARKER_ROWS);
  });
});

describe('initialRows', () => {
  it('starts from the recorded results when there are some', () => {
    const rec = [{ marker: 'CK', result: '+' }];
    const rows = initialRows(rec, 'CD20');
    expect(rows).toEqual(rec);
    expect(rows[0]).not.toBe(rec[0]);
  });
  it('otherwise prefills one empty row per ordered marker, or one blank row', () => {
    expect(initialRows([], 'CK、CD20')).toEqual([
      { marker: 'CK', result: '' },
      { marker: 'CD20', result: '' },
    ]);
    expect(initialRows(null, '')).toEqual([{ marker: '', result: '' }]);
  });
});

describe('duplicateMarkers', () => {
  it('names markers given twice, ignoring case and blanks', () => {
    expect(duplicateMarkers([{ marker: 'CK' }, { marker: ' ck ' }, { marker: '' }, { marker: '' }, { marker: 'CD20' }])).toEqual(['ck']);
    expect(duplicateMarkers([{ marker: 'CK' }, { marker: 'CD20' }])).toEqual([]);
  });
});

describe('formatMarkerResults', () => {
  const rows = [
    { marker: 'CK', result: '+' },
    { marker: 'Ki-67', result: '约30%+' },
  ];
  it('uses full-width punctuation in Chinese', () => {
    expect(formatMarkerResults(rows, 'zh-CN')).toBe('CK（+），Ki-67（约30%+）');
  });
  it('uses ASCII punctuation otherwise, keeping the result text as entered', () => {
    expect(formatMarkerResults(rows, 'en-US')).toBe('CK (+), Ki-67 (约30%+)');
    expect(formatMarkerResults(null, 'en-US')).toBe('');
  });
});
