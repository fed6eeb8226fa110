import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../lib/i18n';
import zh from '../../locales/zh-CN.json';
import en from '../../locales/en-US.json';
import { ActionBar } from './ActionBar';
import { REPORT_ACTIONS, SUPPLEMENT_ACTIONS, reportActions, supplementActions } from './actionRegistry';

const kinds = <K extends string>(specs: { kind: K }[]): K[] => specs.map((s) => s.kind);

// Server action lists as the API sends them (sorted by name), with actions
// other panels draw (advice, handover, slide_judge…).
const PENDING = ['advice', 'delay', 'expert_referral', 'expert_return', 'handover', 'invite', 'lock', 'slide_judge'];
const DIAGNOSING = ['advice', 'delay', 'expert_referral', 'expert_return', 'handover', 'invite', 'publish', 'save', 'toreview', 'unlock'];

describe('action registry', () => {
  it('maps the server actions to the workspace buttons, in the registry order, ignoring the rest', () => {
    expect(kinds(reportActions(PENDING))).toEqual(['lock', 'return', 'delay', 'invite']);
    expect(kinds(reportActions(DIAGNOSING))).toEqual(['save', 'toreview', 'publish', 'return', 'delay', 'invite', 'unlock']);
    expect(kinds(reportActions(['review_approve', 'reviewreturn']))).toEqual(['approve', 'reviewreturn']);
    expect(kinds(reportActions(['append_diagnosis', 'diagnosis_amend', 'counter_audit_confirm']))).toEqual(['supplement', 'amend']);
    expect(kinds(reportActions(['diagnosis_recall']))).toEqual(['recall']);
    expect(reportActions(undefined)).toEqual([]);
  });

  it('the supplement: writing it is saving; publish and discard are actions of their own', () => {
    expect(kinds(supplementActions(['append_diagnosis', 'append_discard', 'append_publish', 'append_toreview', 'diagnosis_amend']))).toEqual([
      'discard',
      'save',
      'toreview',
      'publish',
    ]);
    expect(kinds(supplementActions(['append_approve', 'append_reviewreturn']))).toEqual(['reviewreturn', 'approve']);
    expect(kinds(supplementActions(['append_reviewrecall']))).toEqual(['reviewrecall']);
  });

  it('every entry has its text in both languages, and its confirmation too', () => {
    const has = (dict: Record<string, string>, key: string) => typeof dict[key] === 'string' && dict[key] !== '';
    for (const spec of [...Object.values(REPORT_ACTIONS), ...Object.values(SUPPLEMENT_ACTIONS)]) {
      const keys = [spec.label, ...('confirm' in spec ? [spec.confirm.title, spec.confirm.done, ...('content' in spec.confirm ? [spec.confirm.content] : [])] : [])];
      for (const key of keys) {
        expect(has(zh, key), `zh-CN ${key}`).toBe(true);
        expect(has(en, key), `en-US ${key}`).toBe(true);
      }
    }
  });
});

describe('action bar', () => {
  const draw = (ui: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

  it('draws one button per listed action: the main ones, the others under "more"', () => {
    const onAction = vi.fn();
    draw(<ActionBar actions={kinds(reportActions(DIAGNOSING))} busy={false} saving={false} onAction={onAction} />);
    for (const a of ['save', 'toreview', 'publish']) expect(screen.getByTestId(`action-${a}`)).toBeTruthy();
    expect(screen.getByTestId('action-publish').className).toContain('ant-btn-primary');
    expect(screen.queryByTestId('action-lock')).toBeNull();
    expect(screen.queryByTestId('action-return')).toBeNull(); // in the menu, not yet open
    expect(screen.getByTestId('action-more')).toBeTruthy();
    fireEvent.click(screen.getByTestId('action-publish'));
    expect(onAction).toHaveBeenCalledWith('publish');
  });

  it('draws nothing when the server lists no workspace action', () => {
    const { container } = draw(<ActionBar actions={kinds(reportActions(['advice', 'slide_judge']))} busy={false} saving={false} onAction={() => {}} />);
    expect(container.textContent).toBe('');
  });

  it('draws the supplement buttons when the supplement is shown', () => {
    const onSupp = vi.fn();
    draw(
      <ActionBar
        actions={[]}
        busy={false}
        saving={false}
        onAction={() => {}}
        supplement={{ actions: kinds(supplementActions(['append_diagnosis', 'append_publish', 'append_toreview'])), onAction: onSupp }}
      />,
    );
    expect(screen.getByTestId('action-supplement-save')).toBeTruthy();
    expect(screen.getByTestId('action-supplement-toreview')).toBeTruthy();
    expect(screen.queryByTestId('action-supplement-discard')).toBeNull();
    fireEvent.click(screen.getByTestId('action-supplement-publish'));
    expect(onSupp).toHaveBeenCalledWith('publish');
  });
});
