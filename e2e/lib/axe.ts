import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core (WCAG 2 A and AA rules) on the page, or on the part `include` selects,
 * and fails on any critical or serious violation. antd's hidden column-measure row of
 * fixed-layout tables (aria-hidden, zero height) is never read by anyone and is left out.
 */
export async function expectAccessible(page: Page, name: string, include?: string) {
  let builder = new AxeBuilder({ page }).exclude('.ant-table-measure-row').withTags(['wcag2a', 'wcag2aa']);
  if (include) builder = builder.include(include);
  const r = await builder.analyze();
  const bad = r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.length} nodes: ${v.nodes.slice(0, 3).map((n) => n.target).join(' | ')}`)).toEqual([]);
}
