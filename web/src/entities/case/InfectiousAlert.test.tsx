import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { i18n, loadLanguage } from '../../lib/i18n';
import { InfectiousAlert, infectiousOf } from './InfectiousAlert';

const wrap = (c: Record<string, unknown>) => renderAt(<InfectiousAlert c={c} />);

describe('InfectiousAlert', () => {
  it('says nothing for a specimen that is not infectious', () => {
    wrap({ infectious_specimen: false });
    expect(screen.queryByTestId('infectious-alert')).toBeNull();
  });
  it('warns of an infectious specimen and names what it carries', async () => {
    await i18n.changeLanguage('zh-CN');
    wrap({ infectious_specimen: true, infectious_agents: ['乙肝', '结核'] });
    expect(screen.getByRole('alert').textContent).toContain('乙肝, 结核');
    expect(screen.getByRole('alert').textContent).toContain('传染性标本');
  });
  it('warns in English, without agents too', async () => {
    await loadLanguage('en-US');
    await i18n.changeLanguage('en-US');
    wrap({ infectious_specimen: true });
    expect(screen.getByRole('alert').textContent).toContain('Infectious specimen');
    await i18n.changeLanguage('zh-CN');
  });
  it('reads the flag from the agents and ignores what is not text', () => {
    expect(infectiousOf({ infectious_agents: ['HIV', 3] })).toEqual({ infectious: true, agents: ['HIV'] });
    expect(infectiousOf(null)).toEqual({ infectious: false, agents: [] });
  });
});
