// Small line icons for the drawing tools that antd's set lacks; decorative (the
// buttons carry the names), so hidden from assistive technology.
const I = ({ d, fill }: { d: string; fill?: boolean }) => (
  <span aria-hidden className="anticon" style={{ display: 'inline-flex' }}>
    <svg width="1em" height="1em" viewBox="0 0 16 16" fill={fill ? 'currentColor' : 'none'} stroke={fill ? 'none' : 'currentColor'} strokeWidth={1.5} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d={d} />
    </svg>
  </span>
);

export const PanIcon = () => <I d="M8 1.5v13M1.5 8h13M8 1.5 6.3 3.2M8 1.5l1.7 1.7M8 14.5l-1.7-1.7M8 14.5l1.7-1.7M1.5 8l1.7-1.7M1.5 8l1.7 1.7M14.5 8l-1.7-1.7M14.5 8l-1.7 1.7" />;
export const RectIcon = () => <I d="M2.5 3.5h11v9h-11z" />;
export const EllipseIcon = () => <I d="M14 8c0 2.5-2.7 4.5-6 4.5S2 10.5 2 8s2.7-4.5 6-4.5S14 5.5 14 8z" />;
export const PolygonIcon = () => <I d="M8 2l5.5 4-2 6.5h-7l-2-6.5z" />;
export const FreehandIcon = () => <I d="M2 11c1.5-3 3-5 4.5-4s-.5 4 1 4.5S11 8 12 5.5s2-2.5 2-2.5" />;
export const ArrowIcon = () => <I d="M3 13 13 3M13 3H7.5M13 3v5.5" />;
export const TextIcon = () => <I d="M3 3.5h10M8 3.5v9.5M6 13h4" />;
export const RulerIcon = () => <I d="M2 11.5 11.5 2 14 4.5 4.5 14zM5 8.5l1.3 1.3M7 6.5l1.3 1.3M9 4.5l1.3 1.3" />;
export const AreaRectIcon = () => <I d="M2.5 3.5h11v9h-11zM5 6.5h6M5 9.5h6" />;
export const AreaPolygonIcon = () => <I d="M8 2l5.5 4-2 6.5h-7l-2-6.5zM6 7.5h4M6.5 10h3" />;
