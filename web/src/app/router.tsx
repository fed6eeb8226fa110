import { Navigate } from 'react-router';
import { Root } from './Root';
import { RouteError } from './RouteError';
import { RequireAuth } from './RequireAuth';
import { CaseBadgeProvider } from '../features/consultation/CaseBadges';
import { DiagnosisBadgeProvider } from '../features/diagnosis/DiagnosisBadges';

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { path: '/login', lazy: page(() => import('../features/auth/LoginPage')) },
      { path: '/404', lazy: page(() => import('../components/ui/NotFoundPage')) },
      { path: '/error', lazy: page(() => import('../components/ui/ErrorPage')) },
      {
        element: <RequireAuth />,
        children: [
          { path: '/password', lazy: page(() => import('../features/account/ForcedPasswordPage')) },
          { path: '/slide/view/:slideId', lazy: page(() => import('../features/slide/SlideViewerPage')) },
          { path: '/slide/compare', lazy: page(() => import('../features/slide/ComparePage')) },
          {
            // Menu badge counts for the shell (case-list tab counts).
            element: <CaseBadgeProvider />,
            children: [
              {
                // Expert badges (diagnosis counts) over the case-list counts.
                element: <DiagnosisBadgeProvider />,
                children: [
              {
                lazy: page(() => import('../features/shell/ShellLayout')),
                children: [
                  { path: '/manage', lazy: page(() => import('../features/shell/LandingRedirect')) },
                  { path: '/system/user', lazy: page(() => import('../features/user/UserListPage')) },
                  { path: '/department/manage', lazy: page(() => import('../features/org/CenterListPage')) },
                  { path: '/site/manage', lazy: page(() => import('../features/org/HospitalListPage')) },
                  { path: '/bank/manage', lazy: page(() => import('../features/config/LibraryPage')) },
                  { path: '/setting/chargeItem', lazy: page(() => import('../features/config/ChargeItemPage')) },
                  { path: '/setting/timeoutConfig', lazy: page(() => import('../features/config/TimeoutConfigPage')) },
                  { path: '/setting/other-config', lazy: page(() => import('../features/config/SystemSettingsPage')) },
                  { path: '/log/operation', lazy: page(() => import('../features/audit/OperationLogPage')) },
                  { path: '/account', lazy: page(() => import('../features/account/AccountPage')) },
                  { path: '/dss/uploading', lazy: page(() => import('../features/upload/UploadingPage')) },
                  { path: '/dss/uploaded', lazy: page(() => import('../features/upload/UploadedPage')) },
                  { path: '/dss/upload-setting', lazy: page(() => import('../features/upload/UploadSettingPage')) },
                  { path: '/case/manage', lazy: page(() => import('../features/consultation/CaseManagePage')) },
                  { path: '/case/register/:id', lazy: page(() => import('../features/consultation/RegisterPage')) },
                  { path: '/case/detail/:id', lazy: page(() => import('../features/consultation/CaseDetailPage')) },
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
                  { path: '/diagnosis/collect', lazy: page(() => import('../features/diagnosis/CollectPage')) },
                  { path: '/diagnosis/item/:id', lazy: page(() => import('../features/diagnosis/DiagnosisItemPage')) },
                  { path: '/setting/diagnosisTemplate', lazy: page(() => import('../features/diagnosis/TemplatePage')) },
                  { path: '/case/advices', lazy: page(() => import('../features/diagnosis/CaseAdvicesPage')) },
                  { path: '/case/technical_advices', lazy: page(() => import('../features/diagnosis/CaseTechnicalAdvicesPage')) },
                  { path: '/third/addadvice', lazy: page(() => import('../features/diagnosis/ThirdAdvicePage')) },
                  { path: '/case/report', lazy: page(() => import('../features/diagnosis/CaseReportPage')) },
                  { path: '/setting/report', lazy: page(() => import('../features/report/TemplateListPage')) },
                  { path: '/setting/report/:kind', lazy: page(() => import('../features/report/TemplateEditPage')) },
                  { path: '/setting/report/edit/:id', lazy: page(() => import('../features/report/TemplateEditPage')) },
                  { path: '/setting/report/view/:id', lazy: page(() => import('../features/report/TemplateViewPage')) },
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
