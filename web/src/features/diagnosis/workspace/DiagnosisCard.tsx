// The right side of the workspace: the report (or the supplementary report) as
// a form with its notes, the term and template pickers and the action bar.
import { Alert, Button, Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CaseDetail } from '../../../entities/case/api';
import type { Template } from '../api';
import { ActionBar } from '../ActionBar';
import { DiagnosisFields, SupplementStatusTag } from '../DiagnosisForm';
import { TemplatePicker } from '../TemplatePicker';
import { TermPicker } from '../TermPicker';
import { StructuredButton } from '../structured/StructuredDrawer';
import { SymbolPalette } from '../structured/SymbolPalette';
import { countdown } from './countdown';
import { useDiagnosisSettings } from '../settingsApi';
import { useCaseFrozen } from '../../../entities/case/FrozenElapsed';
import { ReviewNote, SaveState, SupplementReviewState } from './formStates';
import { lockHolderName } from './WorkspaceHeader';
import type { Workspace } from './useWorkspace';
import type { useWorkspaceCommands } from './useWorkspaceCommands';

type Commands = ReturnType<typeof useWorkspaceCommands>;

/** Why the form cannot be edited now (null when it can, or when nothing needs saying). */
function useReadOnlyReason(w: Workspace, d: CaseDetail): string | null {
  const { t } = useTranslation();
  const { editable, suppShown, actions, staffView, me, work, released } = w;
  if (editable || suppShown) return null;
  if (actions.includes('approve')) return t('diagnosis.readonly.review', { name: d.expert_name ?? '' });
  if (!staffView && d.locked_by != null && d.locked_by !== me) return t('diagnosis.readonly.lockedBy', { name: lockHolderName(d, me, t('diagnosis.lock.me')) });
  if (actions.includes('lock')) return t('diagnosis.readonly.lockFirst');
  if (work?.status === 'to_review') return t('diagnosis.readonly.inReview');
  if (released) return null;
  return staffView ? t('diagnosis.readonly.staff') : t('diagnosis.readonly.view');
}

export function DiagnosisCard({ w, d, commands }: { w: Workspace; d: CaseDetail; commands: Commands }) {
  const { t } = useTranslation();
  const { active, editable, suppEditable, suppShown, supp, me, work, hesitating, now, released, staffView, caret } = w;
  const writable = editable || suppEditable;
  const readOnlyReason = useReadOnlyReason(w, d);
  const frozen = !!useCaseFrozen(w.id, w.isExpert || staffView).data && !w.suppShown;
  // The report classes of the case's center (its copy of the diagnosis settings).
  const reportClasses = useDiagnosisSettings(true, d.center_id).data?.report_class;
  return (
    <Card
      size="small"
      title={
        suppShown ? (
          <Flex gap={8} align="center">
            {t('diagnosis.supplement.title')}
            {supp && <SupplementStatusTag status={supp.status} />}
          </Flex>
        ) : (
          t('diagnosis.form.title')
        )
      }
      extra={
        <Flex gap={8} align="center">
          <SaveState saving={active.saving} dirty={active.dirty} savedAt={active.savedAt} editable={writable} />
          {writable && (
            <>
              <SymbolPalette onPick={caret.insert} />
              <TermPicker onPick={caret.insert} onDismiss={() => caret.focus()} />
              {!suppShown && (
                <StructuredButton
                  caseId={w.id}
                  libraryId={d.library_id}
                  saved={{ templateId: work?.struct_template_id, values: work?.struct_values }}
                  onApply={(text, mode) => active.insert({ opinion: text }, mode)}
                />
              )}
              <TemplatePicker onPick={(x: Template, mode) => active.insert({ microscopic: x.microscopic, opinion: x.opinion, gross_description: x.gross_description }, mode)} />
            </>
          )}
        </Flex>
      }
      data-testid="diagnosis-form"
    >
      {active.restored && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          message={t('diagnosis.restored')}
          action={
            <Button size="small" onClick={active.discard}>
              {t('diagnosis.discardLocal')}
            </Button>
          }
        />
      )}
      {readOnlyReason && <Alert type="info" showIcon style={{ marginBottom: 8 }} message={readOnlyReason} />}
      {suppShown && supp && <SupplementReviewState supp={supp} me={me} />}
      <ReviewNote work={work} />
      {hesitating && work?.release_at && (
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('diagnosis.hesitation', { time: countdown(Date.parse(work.release_at) - now) })} data-testid="hesitation" />
      )}
      {released && !suppShown ? (
        !hesitating && <Alert type="success" showIcon style={{ marginBottom: 8 }} message={t('diagnosis.published')} />
      ) : staffView ? null : (
        <DiagnosisFields
          values={active.values}
          readOnly={!writable}
          onChange={active.setField}
          bind={caret.bind}
          frozen={frozen}
          reportClasses={reportClasses}
        />
      )}
      <ActionBar
        actions={w.actions}
        busy={w.busy}
        saving={active.saving}
        onAction={commands.onAction}
        supplement={
          suppShown
            ? { actions: w.suppActs, onAction: (a) => void commands.onSuppAction(a), onCancel: supp ? undefined : () => w.setSupplementOpen(false) }
            : undefined
        }
      />
    </Card>
  );
}
