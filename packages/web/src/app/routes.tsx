import { redirect, type RouteObject } from 'react-router';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { RouteErrorPage } from '../features/errors/RouteErrorPage';
import { PageSpinner } from '../ui/PageSpinner';
import { DEFAULT_LANDING, requireSession, requireSessionUnlessUploadLink } from '../shared/session/guards';
import { RootLayout } from './RootLayout';

/** Route-level code splitting: every page is its own chunk, loaded on first visit. */
const loginPage = () => import('../features/auth/LoginPage').then((m) => ({ Component: m.LoginPage }));

function FullScreenSpinner() {
  return <PageSpinner fullScreen />;
}

/** Routes of spec 000 §2 that exist so far. Path-style (no hash), base '/'. */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: FullScreenSpinner,
    children: [
      // Redirect-only routes render nothing (element: null); their loader always answers a redirect.
      { index: true, loader: () => redirect(DEFAULT_LANDING), element: null },

      // Public routes
      { path: 'login', lazy: loginPage },
      { path: 'default-login', lazy: loginPage },
      // Single sign-on (issue 27): the group's OpenID Connect provider sends the browser back here.
      {
        path: 'loginCallback',
        lazy: () => import('../features/auth/LoginCallbackPage').then((m) => ({ Component: m.LoginCallbackPage })),
      },
      {
        path: 'register',
        lazy: () => import('../features/auth/RegisterPage').then((m) => ({ Component: m.RegisterPage })),
      },
      {
        path: 'forget-password',
        lazy: () => import('../features/auth/ForgetPasswordPage').then((m) => ({ Component: m.ForgetPasswordPage })),
      },
      {
        path: 'change-password',
        lazy: () => import('../features/auth/ChangePasswordPage').then((m) => ({ Component: m.ChangePasswordPage })),
      },
      {
        path: '401',
        lazy: () => import('../features/errors/UnauthorizedPage').then((m) => ({ Component: m.UnauthorizedPage })),
      },
      // The not-found page is tiny and also rendered by the error boundary: kept in the main chunk.
      { path: '404', Component: NotFoundPage },

      // With a token query the public page of an upload link, without one the signed-in wizard.
      {
        path: 'upload',
        loader: requireSessionUnlessUploadLink,
        shouldRevalidate: () => true,
        lazy: () => import('./UploadRoute').then((m) => ({ Component: m.UploadRoute })),
      },

      // Public pages of upload codes: a phone signature, order forms and attachments for one exam.
      {
        path: 'mobileSignature',
        lazy: () =>
          import('../features/signature/MobileSignaturePage').then((m) => ({ Component: m.MobileSignaturePage })),
      },
      {
        path: 'service-orders/upload',
        lazy: () =>
          import('../features/attachments/CodeUploadPage').then((m) => ({
            Component: () => <m.CodeUploadPage kind="form" />,
          })),
      },
      {
        path: 'attachments/upload',
        lazy: () =>
          import('../features/attachments/CodeUploadPage').then((m) => ({
            Component: () => <m.CodeUploadPage kind="attachment" />,
          })),
      },

      // The image viewer: its signed openpath is its only credential (a shared path has no account).
      {
        path: 'viewer/:openpath',
        lazy: () => import('../features/viewer/ViewerRoute').then((m) => ({ Component: m.ViewerRoute })),
      },

      // A shared report (share or publish link) and a hospital system's signed entry: the link is the credential.
      {
        path: 'reports/s',
        lazy: () => import('../features/sharing/SharedReportPage').then((m) => ({ Component: m.SharedReportPage })),
      },
      // A hospital system's signed entries (issue 27): the signed payload is the credential; /go signs out first.
      {
        path: 'ss-login',
        lazy: () =>
          import('../features/auth/SignedEntryPage').then((m) => ({
            Component: () => <m.SignedEntryPage type="ss-login" />,
          })),
      },
      // A viewer (OHIF) signs in through yyp's OpenID Connect provider (issue 28 item 11): needs a session.
      {
        path: 'oidc/sign-in',
        loader: requireSession,
        lazy: () => import('../features/oidc/OidcSignInPage').then((m) => ({ Component: m.OidcSignInPage })),
      },
      {
        path: 'go',
        lazy: () =>
          import('../features/auth/SignedEntryPage').then((m) => ({
            Component: () => <m.SignedEntryPage type="go" />,
          })),
      },
      { path: 'web', loader: ({ request }) => redirect(`/web-report${new URL(request.url).search}`), element: null },
      {
        path: 'web-report',
        lazy: () => import('../features/sharing/WebReportPage').then((m) => ({ Component: m.WebReportPage })),
      },

      // One learning video (spec 000 §2, public): a published one plays for a visitor too.
      {
        path: 'learning/:id',
        lazy: () => import('../features/learning/LearningPage').then((m) => ({ Component: m.LearningPage })),
      },

      // The payer's page of a charge (issue 24): its charge token (session storage) is its only credential.
      {
        path: 'charge/:id',
        lazy: () => import('../features/billing/ChargePage').then((m) => ({ Component: m.ChargePage })),
      },

      // Paying for an order (spec 000 §2, public): signed in the requester's page in the app shell,
      // signed out the payment of this tab's charge token or a way to sign in, never PHI.
      {
        path: 'exams/:examId/apply-report/:applicationId',
        lazy: () => import('./ApplyReportRoute').then((m) => ({ Component: m.ApplyReportRoute })),
      },

      // The waiting-room TV: its screen token (issue 23) is its only credential, no login and no shell.
      {
        path: 'calling/:bucketId/screen-show',
        lazy: () => import('../features/calling/ScreenShowPage').then((m) => ({ Component: m.ScreenShowPage })),
      },

      // A report's print page: signed in, without the app's shell (what shows is what prints).
      {
        path: 'studies/:examId/reports/:reportId/print',
        loader: requireSession,
        lazy: () => import('../features/reports/print/PrintPage').then((m) => ({ Component: m.PrintRoute })),
      },
      {
        path: 'studies/print-sheets',
        loader: requireSession,
        lazy: () => import('../features/reports/print/PrintSheetsPage').then((m) => ({ Component: m.PrintSheetsPage })),
      },

      // Routes that need login
      {
        id: 'signed-in',
        loader: requireSession,
        shouldRevalidate: () => true,
        lazy: () => import('./shell/AppShell').then((m) => ({ Component: m.AppShell })),
        children: [
          {
            path: 'studies',
            lazy: () => import('../features/studies/StudiesPage').then((m) => ({ Component: m.StudiesPage })),
          },
          // Ordering an expert or remote read of an exam (issue 24); paying for it is public, above.
          {
            path: 'exams/:examId/apply-report',
            lazy: () => import('../features/orders/ApplyReportPage').then((m) => ({ Component: m.ApplyReportPage })),
          },
          {
            path: 'registry',
            lazy: () => import('../features/registry/RegistryPage').then((m) => ({ Component: m.RegistryPage })),
          },
          {
            path: 'calling',
            lazy: () => import('../features/calling/CallingPage').then((m) => ({ Component: m.CallingPage })),
          },
          // Statistics (issue 26): the caller's group, and one group's (under groups, below).
          {
            path: 'group-statistics',
            lazy: () => import('../features/statistics/StatisticsPage').then((m) => ({ Component: m.StatisticsPage })),
          },
          // Consultations (issue 25): the list, mine, the request form, the detail and a linked history one.
          {
            path: 'consultations',
            children: [
              {
                index: true,
                lazy: () =>
                  import('../features/consultations/ConsultationsPage').then((m) => ({
                    Component: m.ConsultationsPage,
                  })),
              },
              {
                path: 'my',
                lazy: () =>
                  import('../features/consultations/ConsultationsPage').then((m) => ({
                    Component: () => <m.ConsultationsPage mine />,
                  })),
              },
              {
                path: 'add',
                lazy: () =>
                  import('../features/consultations/ConsultationAddPage').then((m) => ({
                    Component: m.ConsultationAddPage,
                  })),
              },
              {
                path: ':id',
                lazy: () =>
                  import('../features/consultations/ConsultationDetailPage').then((m) => ({
                    Component: m.ConsultationDetailPage,
                  })),
              },
              {
                path: ':id/related/:linkId',
                lazy: () =>
                  import('../features/consultations/ConsultationDetailPage').then((m) => ({
                    Component: m.ConsultationDetailPage,
                  })),
              },
            ],
          },
          {
            path: 'studies/:examId/reports/:reportId',
            lazy: () => import('./ReportEditorRoute').then((m) => ({ Component: m.ReportEditorRoute })),
          },
          {
            path: 'groups',
            children: [
              {
                index: true,
                lazy: () => import('../features/groups/GroupsPage').then((m) => ({ Component: m.GroupsPage })),
              },
              {
                path: 'create',
                lazy: () =>
                  import('../features/groups/create/CreateGroupPage').then((m) => ({ Component: m.CreateGroupPage })),
              },
              {
                path: ':groupId',
                lazy: () => import('../features/groups/GroupPage').then((m) => ({ Component: m.GroupPage })),
              },
              {
                path: ':groupId/statistics',
                lazy: () =>
                  import('../features/statistics/StatisticsPage').then((m) => ({ Component: m.StatisticsPage })),
              },
              {
                path: ':groupId/organizations/:organizationId',
                lazy: () =>
                  import('./OrganizationRoute').then((m) => ({
                    Component: m.OrganizationRoute,
                  })),
              },
            ],
          },
          {
            path: 'critical-values',
            lazy: () =>
              import('../features/safetyReview/CriticalValuesPage').then((m) => ({ Component: m.CriticalValuesPage })),
          },
          {
            path: 'quality',
            lazy: () =>
              import('../features/safetyReview/QualityReviewPage').then((m) => ({ Component: m.QualityReviewPage })),
          },
          {
            path: 'report-publish',
            lazy: () =>
              import('../features/sharing/ReportPublishPage').then((m) => ({ Component: m.ReportPublishPage })),
          },
          {
            path: 'report-publish/detail',
            lazy: () =>
              import('../features/sharing/ReportPublishDetailPage').then((m) => ({
                Component: m.ReportPublishDetailPage,
              })),
          },
          {
            path: 'orders',
            lazy: () => import('../features/orders/OrdersPage').then((m) => ({ Component: m.OrdersPage })),
          },
          {
            path: 'accounts',
            lazy: () => import('../features/admin/AccountsAdminPage').then((m) => ({ Component: m.AccountsAdminPage })),
          },
          {
            path: 'logs',
            lazy: () => import('../features/admin/AuditLogPage').then((m) => ({ Component: m.AuditLogPage })),
          },
          {
            path: 'dicom-refusals',
            lazy: () => import('../features/admin/DicomRefusalsPage').then((m) => ({ Component: m.DicomRefusalsPage })),
          },
          // Learning videos (the list; one video plays at the public /learning/:id) and help (issue 27).
          {
            path: 'learning',
            lazy: () =>
              import('../features/learning/LearningListPage').then((m) => ({ Component: m.LearningListPage })),
          },
          {
            path: 'help',
            lazy: () => import('../features/help/HelpPage').then((m) => ({ Component: m.HelpPage })),
          },
          {
            path: 'settings',
            lazy: () => import('../features/settings/SettingsLayout').then((m) => ({ Component: m.SettingsLayout })),
            children: [
              { index: true, loader: () => redirect('/settings/profile'), element: null },
              {
                path: 'profile',
                lazy: () => import('../features/settings/ProfilePage').then((m) => ({ Component: m.ProfilePage })),
              },
              {
                path: 'groups',
                lazy: () => import('../features/settings/MyGroupsPage').then((m) => ({ Component: m.MyGroupsPage })),
              },
              {
                path: 'billing',
                lazy: () =>
                  import('../features/billing/BillingSettingsPage').then((m) => ({ Component: m.BillingSettingsPage })),
              },
              {
                path: 'signature',
                lazy: () => import('../features/settings/SignaturePage').then((m) => ({ Component: m.SignaturePage })),
              },
              {
                path: 'mobile',
                lazy: () => import('../features/settings/MobilePage').then((m) => ({ Component: m.MobilePage })),
              },
              {
                path: 'notifications',
                lazy: () =>
                  import('../features/settings/NotificationSettingsPage').then((m) => ({
                    Component: m.NotificationSettingsPage,
                  })),
              },
              {
                path: 'admin',
                lazy: () =>
                  import('../features/admin/PlatformAdminPage').then((m) => ({ Component: m.PlatformAdminPage })),
              },
            ],
          },
        ],
      },

      { path: '*', Component: NotFoundPage },
    ],
  },
];
