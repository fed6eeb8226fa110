import { Tag } from 'antd';

// Text and background pairs with at least 4.5:1 contrast.
const LEVEL_COLOURS: Record<string, { color: string; background: string }> = {
  normal: { color: 'rgba(0, 0, 0, 0.75)', background: '#f2f4f7' },
  important: { color: '#873800', background: '#fff7e6' },
  very_important: { color: '#a8071a', background: '#fff1f0' },
};

/** The level of a notification or notice as a coloured tag. */
export function LevelTag({ level, text }: { level: string; text: string }) {
  return (
    <Tag bordered={false} style={{ marginInlineEnd: 0, ...(LEVEL_COLOURS[level] ?? LEVEL_COLOURS.normal) }}>
      {text}
    </Tag>
  );
}

const TONES = {
  urgent: { color: '#871400', background: '#fff2e8' },
  good: { color: '#135200', background: '#f6ffed' },
  plain: { color: 'rgba(0, 0, 0, 0.75)', background: '#f2f4f7' },
};

/** A small tag in one of a few tones, each readable (4.5:1). */
export function ToneTag({ tone, children }: { tone: keyof typeof TONES; children: React.ReactNode }) {
  return (
    <Tag bordered={false} style={{ marginInlineEnd: 0, ...TONES[tone] }}>
      {children}
    </Tag>
  );
}
