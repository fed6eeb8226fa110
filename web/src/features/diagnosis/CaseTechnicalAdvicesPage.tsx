import { AdviceListPage } from './AdviceListPage';

/** Site: technical re-work ordered by the experts (/case/technical_advices). */
export default function CaseTechnicalAdvicesPage() {
  return <AdviceListPage kind="technical" />;
}
