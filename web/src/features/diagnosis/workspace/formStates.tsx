// The notes above and beside the diagnosis form: whether the text is saved, and
// where a review of the report or of a supplementary report stands.
import dayjs from 'dayjs';
import { Alert, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Diagnosis } from '../api';

export function SaveState({ saving, dirty, savedAt, editable }: { saving: boolean; dirty: boolean; savedAt: Date | null; editable: boolean }) {
  const { t } = useTranslation();
  if (!editable) return null;
  if (saving) return <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('diagnosis.saving')}</Typography.Text>;
  if (dirty)
    return (
      <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="unsaved">
        <SaveOutlined /> {t('diagnosis.unsavedShort')}
      </Typography.Text>
    );
  if (savedAt) return <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('diagnosis.savedAt', { time: dayjs(savedAt).format('HH:mm:ss') })}</Typography.Text>;
  return null;
}

/** The reviewer's answer on the report (returned or approved, with their note). */
export function ReviewNote({ work }: { work: Diagnosis | undefined }) {
  const { t } = useTranslation();
  if (!work?.review_note || (work.status !== 'returned' && work.status !== 'approved')) return null;
  return (
    <Alert
      type={work.status === 'returned' ? 'error' : 'success'}
      showIcon
      style={{ marginBottom: 8 }}
      message={
        <span>
          <b>{work.status === 'returned' ? t('diagnosis.review.returnedBy', { name: work.reviewer_name }) : t('diagnosis.review.approvedBy', { name: work.reviewer_name })}</b>
          {'：'}
          <span style={{ whiteSpace: 'pre-wrap' }}>{work.review_note}</span>
        </span>
      }
    />
  );
}

/** Where the supplement's review stands: who reviews it, and their answer. */
export function SupplementReviewState({ supp, me }: { supp: Diagnosis; me: number }) {
  const { t } = useTranslation();
  if (supp.status === 'to_review')
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 8 }}
        data-testid="supplement-review-state"
        message={
          supp.reviewer_id === me
            ? t('diagnosis.supplement.reviewRequest', { name: supp.doctor_name })
            : t('diagnosis.supplement.inReview', { name: supp.reviewer_name ?? '' })
        }
      />
    );
  if (!supp.review_note && supp.status !== 'approved') return null;
  const accepted = supp.status === 'approved';
  return (
    <Alert
      type={accepted ? 'success' : supp.status === 'returned' ? 'error' : 'warning'}
      showIcon
      style={{ marginBottom: 8 }}
      data-testid="supplement-review-state"
      message={
        <span>
          <b>{t(accepted ? 'diagnosis.supplement.acceptedBy' : 'diagnosis.supplement.rejectedBy', { name: supp.reviewer_name ?? '' })}</b>
          {supp.review_note && (
            <>
              {t('diagnosis.supplement.noteSeparator')}
              <span style={{ whiteSpace: 'pre-wrap' }}>{supp.review_note}</span>
            </>
          )}
        </span>
      }
      description={supp.status === 'draft' ? t('diagnosis.supplement.resendHint') : undefined}
    />
  );
}
