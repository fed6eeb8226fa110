import type { CSSProperties, ReactNode } from 'react';
import { useFontSize } from '../../lib/prefs';
import { useSignInTexts } from '../../lib/signInTexts';

/** antd's heading size for a base font size (its theme's getFontSizes: h2 is the 5th step, h4 the 3rd). */
export function headingSize(base: number, level: 2 | 3 | 4): number {
  const step = 6 - level;
  return Math.floor(Math.floor(base * Math.E ** (step / 5)) / 2) * 2;
}

/**
 * A heading in antd's Typography.Title look. The sign-in page draws its few texts itself, so
 * that /login loads no antd.
 */
export function Heading({ level, style, children }: { level: 2 | 3 | 4; style?: CSSProperties; children: ReactNode }) {
  const size = headingSize(useFontSize(), level);
  const Tag = `h${level}` as const;
  return <Tag style={{ margin: '0 0 0.5em', color: 'rgba(0, 0, 0, 0.88)', fontWeight: 600, fontSize: size, lineHeight: `${size + 8}px`, ...style }}>{children}</Tag>;
}

/** The left half of the login page: a stylised tissue section under a lens. */
export function LoginArt({ title }: { title: string }) {
  const t = useSignInTexts();
  return (
    <div style={{ flex: 1.2, position: 'relative', overflow: 'hidden', background: 'linear-gradient(135deg, #0f2a47 0%, #1f6fc5 60%, #4fa3e0 100%)', color: '#fff', display: 'flex', flexDirection: 'column', padding: '48px 56px' }}>
      <svg viewBox="0 0 600 600" style={{ position: 'absolute', right: -70, bottom: -70, width: 'min(480px, 58%)', opacity: 0.9 }} aria-hidden>
        <defs>
          <radialGradient id="lens" cx="50%" cy="50%" r="50%">
            <stop offset="0%" stopColor="#fbe3ec" />
            <stop offset="100%" stopColor="#e7a9c4" />
          </radialGradient>
        </defs>
        <circle cx="300" cy="300" r="230" fill="url(#lens)" opacity="0.92" />
        <circle cx="300" cy="300" r="230" fill="none" stroke="#ffffff" strokeOpacity="0.5" strokeWidth="10" />
        {[
          [220, 220, 38], [320, 190, 30], [400, 260, 42], [250, 330, 34], [350, 340, 36], [300, 430, 28], [190, 300, 24], [430, 380, 26], [240, 420, 22],
        ].map(([x, y, r], i) => (
          <g key={i}>
            <ellipse cx={x} cy={y} rx={r} ry={r * 0.8} fill="#f3c1d6" stroke="#c9799f" strokeWidth="3" />
            <circle cx={x + 4} cy={y - 2} r={r * 0.36} fill="#6a3d9a" opacity="0.85" />
          </g>
        ))}
      </svg>
      <div style={{ position: 'relative', display: 'flex', alignItems: 'center', gap: 12 }}>
        <img src="/favicon.svg" alt="" width={40} height={40} />
        <Heading level={3} style={{ color: '#fff', margin: 0 }}>
          {title}
        </Heading>
      </div>
      <div style={{ position: 'relative', maxWidth: 460, marginTop: '12vh' }}>
        <Heading level={2} style={{ color: '#fff' }}>
          {t('login.tagline')}
        </Heading>
        <p style={{ margin: '0 0 1em', color: 'rgba(255,255,255,0.85)', fontSize: 16 }}>{t('login.description')}</p>
      </div>
      <span style={{ position: 'relative', marginTop: 'auto', color: 'rgba(255,255,255,0.6)' }}>© Telepath</span>
    </div>
  );
}
