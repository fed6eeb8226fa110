import { createElement, type ReactNode } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/lib/types';
import './PlainIcon.css';

type Node = { tag: string; attrs: Record<string, string>; children?: Node[] };
const draw = (n: Node, key?: number): ReactNode => createElement(n.tag, { key, ...n.attrs }, n.children?.map(draw));

/**
 * An antd icon drawn from its SVG definition (`@ant-design/icons-svg/es/asn/…`), in antd's icon
 * look, without the icon library's context and style injection: for the sign-in page, which
 * loads no antd.
 */
export function PlainIcon({ icon, spin }: { icon: IconDefinition; spin?: boolean }) {
  const svg = icon.icon as Node;
  return (
    <span role="img" aria-label={icon.name} className={`anticon${spin ? ' anticon-spin' : ''}`}>
      {draw({ ...svg, attrs: { ...svg.attrs, width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': 'true' } })}
    </span>
  );
}
