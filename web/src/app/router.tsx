import { matchRoutes, Navigate, type RouteObject } from 'react-router';
import { Root } from './Root';
import { RouteError } from './RouteError';
import { setWarmUp } from '../lib/warmUp';

const frozen = (name: 'FrozenApplyPage' | 'FrozenTodoPage' | 'FrozenExpertPage' | 'AdminAppointmentPage') => async () => ({ Component: (await import('../features/frozen/pages'))[name] });
const distribute = (view: 'manage' | 'done' | 'recall' | 'return') => async () => {
  const { FrozenDistributePage } = await import('../features/frozen/pages');
  return { Component: () => <FrozenDistributePage view={view} /> };
};
const stat = (screen: 'consultation' | 'bank' | 'expert' | 'expert-consultation' | 'quality' | 'he' | 'outside' | 'diagnosis') => async () => {
  const { StatisticsPage } = await import('../features/statistics/StatisticsPage');
  return { Component: () => <StatisticsPage screen={screen} /> };
};
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });
// Every screen but /login: antd, the query cache, i18next and the language's full texts (AppLayer).
const appLayer = async () => {
  const [{ AppLayer }] = await Promise.all([import('./AppLayer'), import('../lib/i18n').then((m) => m.loadAllTexts())]);
  return { Component: AppLayer };
};
// The signed-in layers load with the first signed-in screen, so /login needs none of them.
const requireAuth = async () => ({ Component: (await import('./RequireAuth')).RequireAuth });
const caseBadges = async () => ({ Component: (await import('../features/consultation/CaseBadges')).CaseBadgeProvider });
const diagnosisBadges = async () => ({ Component: (await import('../features/diagnosis/DiagnosisBadges')).DiagnosisBadgeProvider });
const liveEvents = async () => ({ Component: (await import('../entities/message/LiveEvents')).LiveEvents });

export const routes = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { path: '/login', lazy: page(() => import('../features/auth/LoginPage')) },
      {
        lazy: appLayer,
        children: [
      { path: '/shareCase', lazy: page(() => import('../features/slide/SharedCasePage')) },
      { path: '/404', lazy: page(() => import('../components/ui/NotFoundPage')) },
      { path: '/error', lazy: page(() => import('../components/ui/ErrorPage')) },
      {
        lazy: requireAuth,
        children: [
          { path: '/password', lazy: page(() => import('../features/account/ForcedPasswordPage')) },
          {
            // The viewers' own live stream: a meeting's views and pointers arrive on it.
            lazy: liveEvents,
            children: [
              { path: '/slide/view/:slideId', lazy: page(() => import('../features/slide/SlideViewerPage')) },
              { path: '/slide/compare', lazy: page(() => import('../features/slide/ComparePage')) },
            ],
          },
          { path: '/statistical/big-screen', lazy: page(() => import('../features/statistics/BigScreenPage')) },
          {
            // Menu badge counts for the shell (case-list tab counts).
            lazy: caseBadges,
            children: [
              {
                // Expert badges (diagnosis counts) over the case-list counts.
                lazy: diagnosisBadges,
                children: [
              {
                // The live stream: bell, unread badge, and lists refreshed on change.
                lazy: liveEvents,
                children: [
              {
                lazy: page(() => import('../features/shell/ShellLayout')),
                children: [
                  { path: '/manage', lazy: page(() => import('../features/shell/LandingRedirect')) },
                  { path: '/admin/manage', lazy: page(() => import('../features/user/AdminManagePage')) },
                  { path: '/system/user', lazy: page(() => import('../features/user/UserListPage')) },
                  { path: '/department/manage', lazy: page(() => import('../features/org/CenterListPage')) },
                  { path: '/site/manage', lazy: page(() => import('../features/org/HospitalListPage')) },
                  { path: '/bank/manage', lazy: page(() => import('../features/config/LibraryPage')) },
                  { path: '/setting/chargeItem', lazy: page(() => import('../features/config/ChargeItemPage')) },
                  { path: '/setting/reagent', lazy: page(() => import('../features/config/ReagentPage')) },
                  { path: '/setting/diagnosisConfig', lazy: page(() => import('../features/config/DiagnosisConfigPage')) },
                  { path: '/setting/timeoutConfig', lazy: page(() => import('../features/config/TimeoutConfigPage')) },
                  { path: '/setting/storageConfig', lazy: page(() => import('../features/config/StoragePage')) },
                  { path: '/setting/other-config', lazy: page(() => import('../features/config/SystemSettingsPage')) },
                  { path: '/log/operation', lazy: page(() => import('../features/audit/OperationLogPage')) },
                  { path: '/account', lazy: page(() => import('../features/account/AccountPage')) },
                  { path: '/dss/uploading', lazy: page(() => import('../features/upload/UploadingPage')) },
                  { path: '/dss/uploaded', lazy: page(() => import('../features/upload/UploadedPage')) },
                  { path: '/dss/upload-setting', lazy: page(() => import('../features/upload/UploadSettingPage')) },
                  { path: '/case/manage', lazy: page(() => import('../features/consultation/CaseManagePage')) },
                  { path: '/case/uploader', lazy: page(() => import('../features/consultation/UploaderCasesPage')) },
                  { path: '/case/clinical', lazy: page(() => import('../features/consultation/ClinicalCasesPage')) },
                  { path: '/case/register/:id', lazy: page(() => import('../features/consultation/RegisterPage')) },
                  { path: '/case/detail/:id', lazy: page(() => import('../features/consultation/CaseDetailPage')) },
                  { path: '/attach/:id', lazy: page(() => import('../features/gallery/AttachPage')) },
                  { path: '/case/return', lazy: page(() => import('../features/consultation/CaseReturnPage')) },
                  { path: '/case/recall', lazy: page(() => import('../features/consultation/CaseRecallPage')) },
                  { path: '/case/charge', lazy: page(() => import('../features/consultation/ChargePage')) },
                  { path: '/case/message', lazy: page(() => import('../features/consultation/MessagePage')) },
                  { path: '/distribute/manage', lazy: page(() => import('../features/consultation/DistributeManagePage')) },
                  { path: '/distribute/recall', lazy: page(() => import('../features/consultation/RecallReviewPage')) },
                  { path: '/distribute/return', lazy: page(() => import('../features/consultation/DistributeReturnPage')) },
                  { path: '/admin/consultation-manage', lazy: page(() => import('../features/consultation/AdminConsultationPage')) },
                  { path: '/admin/withdraw-manage', lazy: page(() => import('../features/consultation/RecallReviewPage')) },
                  { path: '/dashboard', lazy: page(() => import('../features/diagnosis/DashboardPage')) },
                  { path: '/diagnosis/manage', lazy: page(() => import('../features/diagnosis/DiagnosisManagePage')) },
                  { path: '/diagnosis/return', lazy: page(() => import('../features/diagnosis/DiagnosisReturnPage')) },
                  { path: '/diagnosis/invited', lazy: page(() => import('../features/diagnosis/InvitedPage')) },
                  { path: '/diagnosis/invite', lazy: page(() => import('../features/diagnosis/InviteSentPage')) },
                  { path: '/share/list', lazy: page(() => import('../features/share/ShareListPage')) },
                  { path: '/borrow/manage', lazy: page(() => import('../features/borrow/BorrowManagePage')) },
                  { path: '/diagnosis/collect', lazy: page(() => import('../features/diagnosis/CollectPage')) },
                  { path: '/diagnosis/item/:id', lazy: page(() => import('../features/diagnosis/DiagnosisItemPage')) },
                  { path: '/setting/diagnosisTemplate', lazy: page(() => import('../features/diagnosis/TemplatePage')) },
                  { path: '/case/advices', lazy: page(() => import('../features/diagnosis/CaseAdvicesPage')) },
                  { path: '/case/technical_advices', lazy: page(() => import('../features/diagnosis/CaseTechnicalAdvicesPage')) },
                  { path: '/third/addadvice', lazy: page(() => import('../features/diagnosis/ThirdAdvicePage')) },
                  { path: '/case/report', lazy: page(() => import('../features/diagnosis/CaseReportPage')) },
                  { path: '/frozen-case/apply', lazy: frozen('FrozenApplyPage') },
                  { path: '/frozen-case/todo', lazy: frozen('FrozenTodoPage') },
                  { path: '/frozen-distribute/manage', lazy: distribute('manage') },
                  { path: '/frozen-distribute/done', lazy: distribute('done') },
                  { path: '/frozen-distribute/recall', lazy: distribute('recall') },
                  { path: '/frozen-distribute/return', lazy: distribute('return') },
                  { path: '/frozen-expert/manage', lazy: frozen('FrozenExpertPage') },
                  { path: '/admin/appointment-manage', lazy: frozen('AdminAppointmentPage') },
                  { path: '/schedule/duty', lazy: page(() => import('../features/frozen/DutySchedulePage')) },
                  { path: '/setting/report', lazy: page(() => import('../features/report/TemplateListPage')) },
                  { path: '/setting/report/:kind', lazy: page(() => import('../features/report/TemplateEditPage')) },
                  { path: '/setting/report/edit/:id', lazy: page(() => import('../features/report/TemplateEditPage')) },
                  { path: '/setting/report/view/:id', lazy: page(() => import('../features/report/TemplateViewPage')) },
                  { path: '/message/list', lazy: page(() => import('../features/message/MessageListPage')) },
                  { path: '/admin/invited-manage', lazy: page(() => import('../features/diagnosis/InvitedManagePage')) },
                  { path: '/admin/message-manage', lazy: page(() => import('../features/message/NoticeManagePage')) },
                  { path: '/statistical/consultation', lazy: stat('consultation') },
                  { path: '/statistical/bank', lazy: stat('bank') },
                  { path: '/statistical/expert', lazy: stat('expert') },
                  { path: '/statistical/expert-consultation', lazy: stat('expert-consultation') },
                  { path: '/statistical/quality', lazy: stat('quality') },
                  { path: '/statistical/he', lazy: stat('he') },
                  { path: '/statistical/outside', lazy: stat('outside') },
                  { path: '/statistical/diagnosis', lazy: stat('diagnosis') },
                  { path: '/setting/qcConfig', lazy: page(() => import('../features/statistics/QCTargetPage')) },
                ],
              },
                ],
              },
                ],
              },
            ],
          },
        ],
      },
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

// Loads the layers and the screen of a path ahead of the navigation (lib/warmUp.ts).
setWarmUp((path) => {
  for (const m of matchRoutes(routes as RouteObject[], path) ?? []) {
    const lazy = m.route.lazy;
    if (typeof lazy === 'function') void Promise.resolve(lazy()).catch(() => undefined);
  }
});
