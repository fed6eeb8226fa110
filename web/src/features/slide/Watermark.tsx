import type { ReactNode } from 'react';

/** Repeats text diagonally over children (pointer events pass through). */
export function Watermark({ text, children }: { text: string; children: ReactNode }) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="220"><text x="20" y="150" transform="rotate(-20 210 110)" font-family="sans-serif" font-size="15" fill="rgba(100,116,139,0.22)">${escapeXml(text)}</text></svg>`;
  return (
    <div style={{ position: 'relative' }}>
      {children}
      <div
        aria-hidden
        data-testid="share-watermark"
        style={{ position: 'absolute', inset: 0, pointerEvents: 'none', zIndex: 10, backgroundImage: `url("data:image/svg+xml;utf8,${encodeURIComponent(svg)}")` }}
      />
    </div>
  );
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
