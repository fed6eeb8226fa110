// Pure helpers of the report template editor.
import type { Layout, LayoutSection } from './api';

/** "layout.sections[3].heading_en" → ['layout', 'sections', 3, 'heading_en'], a Form field path. */
export function fieldPath(name: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of name.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The sections a report prints, in order, with the heading of the language. */
export function printed(layout: Layout | undefined, lang: 'zh' | 'en'): { key: string; heading: string }[] {
  return (layout?.sections ?? [])
    .filter((s): s is LayoutSection => !!s && s.show)
    .map((s) => ({ key: s.key, heading: (lang === 'en' ? s.heading_en : s.heading_zh) ?? '' }));
}

/** A copy of a layout fit to send: headless sections carry no headings, only the patient section has fields. */
export function cleanLayout(layout: Layout, headless: string[]): Layout {
  return {
    ...layout,
    sections: (layout.sections ?? []).map((s) => {
      const out: LayoutSection = { key: s.key, show: !!s.show };
      if (!headless.includes(s.key)) {
        out.heading_zh = s.heading_zh ?? '';
        out.heading_en = s.heading_en ?? '';
      }
      if (s.key === 'patient') out.fields = s.fields ?? [];
      return out;
    }),
  };
}
