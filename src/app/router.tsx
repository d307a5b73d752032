// Hash routes (application-spec §2). The globe stays mounted across routes and screens are
// drawn over it; the dialog stack and flash messages sit inside the router so that dialogs can
// navigate. Heavy or rarely used screens are lazy routes, so that their code stays out of the
// login screen's first download; the globe itself is loaded after the first paint (GlobeLoader).
// The main screen sits behind the access gate and is the one exception: React.lazy inside the
// gate rather than a lazy route, because a lazy route's code is fetched before anything of the
// route renders, and a visitor without a session must reach /login without the cruise and its
// globe layers. A route that cannot render shows ErrorPage.
import { lazy, Suspense } from 'react';
import { createHashRouter, type RouteObject } from 'react-router-dom';
import { CameraIndicator } from './components/globe/CameraIndicator';
import { GlobeLoader } from './components/globe/GlobeLoader';
import { DialogProvider } from './components/dialogs';
import { PageFade } from './components/Fade';
import { FlashProvider } from './components/Flash';
import { developerMode } from './developerMode';
import { AdminMenuLoader } from './features/admin/AdminMenuLoader';
import { AdminMenuSlotProvider } from './features/admin/adminMenuSlot';
import { ErrorPage } from './features/errors/ErrorPage';
import { AccessGate } from './features/gate/AccessGate';
import { LoginPage } from './features/login/LoginPage';
import { UnreadNotifications } from './features/notifications/UnreadNotifications';
import { OfflineNotices } from './features/offline/OfflineNotices';
import { Spinner } from './components/Spinner';

const HomePage = lazy(async () => ({ default: (await import('./features/home/HomePage')).HomePage }));

function Shell() {
  return (
    <GlobeLoader>
      <FlashProvider>
        <DialogProvider>
          <AdminMenuSlotProvider>
            <div className="screen">
              <PageFade />
            </div>
            <CameraIndicator />
            <OfflineNotices />
            <AdminMenuLoader />
          </AdminMenuSlotProvider>
        </DialogProvider>
      </FlashProvider>
    </GlobeLoader>
  );
}

/** The /devel pages of developer mode (application-spec §2, §6). */
const develRoutes: RouteObject[] = developerMode
  ? [{ path: '/devel/*', lazy: async () => ({ Component: (await import('./features/devel/DevelPages')).DevelPages }) }]
  : [];

/** The pages the sign-up and password-reset mails link to, which ask before they act. */
const mailLinkRoutes: RouteObject[] = (['signup', 'password_reset'] as const).map((kind) => ({
  path: `/${kind}/confirm`,
  lazy: async () => {
    const { MailLinkPage } = await import('./features/mail-links/MailLinkPage');
    return { element: <MailLinkPage kind={kind} /> };
  },
}));

export const routes: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <ErrorPage />,
    children: [
      {
        errorElement: <ErrorPage />,
        // A page opened cold on a lazy route (a mail link, the credits) waits for its code inside
        // the shell, over the globe, as a lazy route does after a link.
        hydrateFallbackElement: <Spinner />,
        children: [
          {
            path: '/',
            element: (
              <AccessGate>
                <Suspense fallback={<Spinner />}>
                  <HomePage />
                </Suspense>
                <UnreadNotifications />
              </AccessGate>
            ),
          },
          { path: '/login', element: <LoginPage /> },
          {
            path: '/signup',
            lazy: async () => ({ Component: (await import('./features/signup/SignupPage')).SignupPage }),
          },
          {
            path: '/password_reset',
            lazy: async () => ({
              Component: (await import('./features/password-reset/PasswordResetPage')).PasswordResetPage,
            }),
          },
          ...mailLinkRoutes,
          {
            path: '/present2025winter',
            lazy: async () => {
              const { PresentPage } = await import('./features/present/PresentPage');
              return {
                element: (
                  <AccessGate>
                    <PresentPage />
                  </AccessGate>
                ),
              };
            },
          },
          {
            path: '/admin/notifications',
            lazy: async () => ({
              Component: (await import('./features/admin/AdminNotificationsPage')).AdminNotificationsPage,
            }),
          },
          {
            path: '/admin/science',
            lazy: async () => ({
              Component: (await import('./features/science-dashboard/ScienceDashboardPage')).ScienceDashboardPage,
            }),
          },
          {
            path: '/admin/courses',
            lazy: async () => ({
              Component: (await import('./features/course-admin/CourseAdminPage')).CourseAdminPage,
            }),
          },
          {
            path: '/credits',
            lazy: async () => ({ Component: (await import('./features/credits/CreditsPage')).CreditsPage }),
          },
          { path: '/terms', lazy: async () => ({ Component: (await import('./features/terms/TermsPage')).TermsPage }) },
          ...develRoutes,
        ],
      },
    ],
  },
];

export function createRouter() {
  return createHashRouter(routes);
}
