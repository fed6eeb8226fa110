import { AdviceListPage } from './AdviceListPage';

/** Site: special exams ordered by the experts (/case/advices). */
export default function CaseAdvicesPage() {
  return <AdviceListPage kind="special" />;
}
