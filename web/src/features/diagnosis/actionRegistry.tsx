// The workspace's buttons by the server's action names (a case's `actions`).
// The server decides what the signed-in user may do now and re-checks it on
// every call; this registry only says how each action is drawn (label, icon,
// place) and what a click opens (a dialog or a confirmation). The workspace
// draws a button for each listed action found here, in this order; actions
// not here are drawn by their own panels (advice, shots, handover…).
import type { ReactNode } from 'react';
import {
  CheckOutlined,
  ClockCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  FileAddOutlined,
  LockOutlined,
  RollbackOutlined,
  SaveOutlined,
  SendOutlined,
  ShareAltOutlined,
  TeamOutlined,
  VideoCameraOutlined,
  UndoOutlined,
  UnlockOutlined,
  VerifiedOutlined,
} from '@ant-design/icons';
import type { DialogKind } from './dialogs';

/** The workspace's command for an action of the report (its test id is `action-<kind>`). */
export type WorkAction =
  | 'lock'
  | 'save'
  | 'toreview'
  | 'publish'
  | 'return'
  | 'delay'
  | 'invite'
  | 'unlock'
  | 'approve'
  | 'reviewreturn'
  | 'reviewrecall'
  | 'recall'
  | 'supplement'
  | 'amend'
  | 'share'
  | 'meeting';

/** The workspace's command for an action of the supplementary report (test id `action-supplement-<kind>`). */
export type SupplementAction = 'save' | 'toreview' | 'reviewrecall' | 'publish' | 'discard' | 'approve' | 'reviewreturn';

export interface ActionSpec<K extends string> {
  kind: K;
  /** i18n key of the button's text. */
  label: string;
  icon: ReactNode;
  /** primary: a blue button; secondary: in the "more" menu. */
  place?: 'primary' | 'secondary';
  danger?: boolean;
  /** Keyboard shortcut shown as the button's tooltip. */
  shortcut?: string;
  /** The dialog a click opens. */
  dialog?: DialogKind;
  /** A click asks first (i18n keys), then makes the call and says it is done. */
  confirm?: { title: string; content?: string; done: string };
}

/** The report's actions: server action name → how the workspace draws it, in the order drawn. */
export const REPORT_ACTIONS = {
  lock: { kind: 'lock', label: 'diagnosis.action.lock', icon: <LockOutlined />, place: 'primary' },
  save: { kind: 'save', label: 'diagnosis.action.save', icon: <SaveOutlined />, shortcut: 'Ctrl + S' },
  toreview: { kind: 'toreview', label: 'diagnosis.action.toreview', icon: <SendOutlined />, dialog: 'toreview' },
  publish: { kind: 'publish', label: 'diagnosis.action.publish', icon: <VerifiedOutlined />, place: 'primary', dialog: 'publish' },
  expert_return: { kind: 'return', label: 'diagnosis.action.return', icon: <RollbackOutlined />, place: 'secondary', dialog: 'return' },
  delay: { kind: 'delay', label: 'diagnosis.action.delay', icon: <ClockCircleOutlined />, place: 'secondary', dialog: 'delay' },
  invite: { kind: 'invite', label: 'diagnosis.action.invite', icon: <TeamOutlined />, place: 'secondary', dialog: 'invite' },
  unlock: { kind: 'unlock', label: 'diagnosis.action.unlock', icon: <UnlockOutlined />, place: 'secondary' },
  review_approve: { kind: 'approve', label: 'diagnosis.action.approve', icon: <CheckOutlined />, place: 'primary', dialog: 'approve' },
  reviewreturn: { kind: 'reviewreturn', label: 'diagnosis.action.reviewreturn', icon: <RollbackOutlined />, danger: true, dialog: 'reviewreturn' },
  reviewrecall: {
    kind: 'reviewrecall',
    label: 'diagnosis.action.reviewrecall',
    icon: <UndoOutlined />,
    confirm: { title: 'diagnosis.confirm.reviewrecall', done: 'diagnosis.done.reviewrecall' },
  },
  diagnosis_recall: {
    kind: 'recall',
    label: 'diagnosis.action.recall',
    icon: <UndoOutlined />,
    place: 'primary',
    confirm: { title: 'diagnosis.confirm.recall', content: 'diagnosis.confirm.recallContent', done: 'diagnosis.done.recall' },
  },
  append_diagnosis: { kind: 'supplement', label: 'diagnosis.action.supplement', icon: <FileAddOutlined />, place: 'primary' },
  diagnosis_amend: { kind: 'amend', label: 'diagnosis.action.amend', icon: <EditOutlined />, place: 'secondary', dialog: 'amend' },
  meeting: { kind: 'meeting', label: 'diagnosis.action.meeting', icon: <VideoCameraOutlined />, place: 'secondary' },
  share: { kind: 'share', label: 'diagnosis.action.share', icon: <ShareAltOutlined />, place: 'secondary' },
} as const satisfies Record<string, ActionSpec<WorkAction>>;

/** The supplementary report's actions, in the order drawn (left to right). */
export const SUPPLEMENT_ACTIONS = {
  append_discard: { kind: 'discard', label: 'diagnosis.action.supplementDiscard', icon: <DeleteOutlined />, danger: true },
  append_diagnosis: { kind: 'save', label: 'diagnosis.action.save', icon: <SaveOutlined />, shortcut: 'Ctrl + S' },
  append_reviewrecall: {
    kind: 'reviewrecall',
    label: 'diagnosis.action.reviewrecall',
    icon: <UndoOutlined />,
    confirm: { title: 'diagnosis.supplement.confirmRecall', done: 'diagnosis.supplement.done.reviewrecall' },
  },
  append_toreview: { kind: 'toreview', label: 'diagnosis.action.toreview', icon: <SendOutlined />, dialog: 'toreview' },
  append_reviewreturn: { kind: 'reviewreturn', label: 'diagnosis.supplement.reject', icon: <RollbackOutlined />, danger: true, dialog: 'reviewreturn' },
  append_approve: { kind: 'approve', label: 'diagnosis.supplement.accept', icon: <CheckOutlined />, place: 'primary', dialog: 'approve' },
  append_publish: { kind: 'publish', label: 'diagnosis.action.supplementPublish', icon: <VerifiedOutlined />, place: 'primary' },
} as const satisfies Record<string, ActionSpec<SupplementAction>>;

type Registry<K extends string> = Readonly<Record<string, ActionSpec<K>>>;

/** The registry's entries for the server's actions, in the registry's order. */
function listed<K extends string>(registry: Registry<K>, actions: readonly string[] | null | undefined): ActionSpec<K>[] {
  const have = new Set(actions ?? []);
  return Object.entries(registry)
    .filter(([name]) => have.has(name))
    .map(([, spec]) => spec);
}

/** The report's buttons for the server's actions of a case. */
export const reportActions = (actions: readonly string[] | null | undefined): ActionSpec<WorkAction>[] => listed<WorkAction>(REPORT_ACTIONS, actions);

/** The supplementary report's buttons for the server's actions of a case. */
export const supplementActions = (actions: readonly string[] | null | undefined): ActionSpec<SupplementAction>[] =>
  listed<SupplementAction>(SUPPLEMENT_ACTIONS, actions);

/** The registry entry of a report command. */
export const reportSpec = (kind: WorkAction): ActionSpec<WorkAction> =>
  (Object.values(REPORT_ACTIONS) as ActionSpec<WorkAction>[]).find((s) => s.kind === kind)!;

/** The registry entry of a supplement command. */
export const supplementSpec = (kind: SupplementAction): ActionSpec<SupplementAction> =>
  (Object.values(SUPPLEMENT_ACTIONS) as ActionSpec<SupplementAction>[]).find((s) => s.kind === kind)!;
