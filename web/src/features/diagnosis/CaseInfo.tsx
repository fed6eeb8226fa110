// The left side of the workspace: patient and clinical data, specimens and
// blocks, attachments, slides, messages, the case log and invitations.
import { Badge, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../components/ui/Tabs';
import { shownSlides, useCaseMessages, type CaseDetail } from '../../entities/case/api';
import { SpecimenTable } from '../../entities/case/SpecimenTable';
import { CaseMessages } from '../../entities/case/CaseMessages';
import { CaseLog } from '../../entities/case/CaseLog';
import { useCaseInvitations, useSameCases } from './api';
import { CaseInfoOverview } from './CaseInfoOverview';
import { CaseInfoFiles } from './CaseInfoFiles';
import { Invitations, SameCases } from './CaseInfoLists';

/** The case side of the workspace, as tabs so everything fits on one screen. */
export function CaseInfo({ d }: { d: CaseDetail }) {
  const { t } = useTranslation();
  const inv = useCaseInvitations(d.id);
  const msgs = useCaseMessages(d.id);
  const same = useSameCases(d.id);
  const slides = shownSlides(d.slides).length;
  const label = (text: string, n?: number) => (n ? <Space size={4}>{text}<Badge count={n} size="small" color="#8c9bb0" /></Space> : text);
  // Half antd's gutter: the seven tabs with their counts then fit the left column at
  // 1440 px in both languages, instead of some hiding behind a "…" button.
  return (
    <Tabs
      size="small"
      tabBarGutter={16}
      defaultActiveKey="overview"
      items={[
        { key: 'overview', label: t('diagnosis.tab.overview'), children: <CaseInfoOverview d={d} /> },
        { key: 'specimens', label: label(t('diagnosis.tab.specimens'), d.specimens?.length), children: <SpecimenTable specimens={d.specimens} compact /> },
        { key: 'files', label: label(t('diagnosis.tab.files'), slides + (d.attachments?.length ?? 0)), children: <CaseInfoFiles d={d} /> },
        { key: 'messages', label: label(t('case.message.thread'), msgs.data?.length), children: <CaseMessages caseId={d.id} /> },
        { key: 'same', label: label(t('diagnosis.tab.sameCase'), same.data?.length), children: <SameCases id={d.id} /> },
        { key: 'log', label: t('diagnosis.tab.log'), children: <CaseLog id={d.id} compact /> },
        { key: 'invitations', label: label(t('diagnosis.tab.invitations'), inv.data?.length), children: <Invitations id={d.id} /> },
      ]}
    />
  );
}
