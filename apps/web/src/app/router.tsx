import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, createBrowserRouter, useLocation } from 'react-router';
import { isSessionValid } from '../features/auth/rules';
import { useAuthUser } from '../features/auth/session';
import { RequireMainUser, RequireSession } from './guards';
import { useSelectedDevice } from '../features/devices/selection';
import { DEFAULT_ROUTE, defaultRouteForType, rememberRoute } from './routeMemory';
import { EDIT_PROFILE_ROUTE, LOGIN_ROUTE } from './routeTitles';
import { LoginPage } from '../features/auth/LoginPage';
import { loadShell } from './AppProviders';
import { INTEGRATION_TOKENS_ROUTE } from '../features/integration/routes';

// The sign-in page is built without the component library and ships with the first load; the
// shell (with the library's providers) and each area are their own chunks.
const MainLayout = lazy(() =>
  loadShell().then(([{ AntTheme }, { MainLayout: Layout }]) => ({
    default: () => (
      <AntTheme>
        <Layout />
      </AntTheme>
    ),
  })),
);
const EditProfilePage = lazy(() =>
  import('../features/auth/EditProfilePage').then((m) => ({ default: m.EditProfilePage })),
);
const IntegrationTokensPage = lazy(() =>
  import('../features/integration/IntegrationTokensPage').then((m) => ({ default: m.IntegrationTokensPage })),
);
const VisualizationArea = lazy(() =>
  import('../features/telemetry/VisualizationArea').then((m) => ({ default: m.VisualizationArea })),
);
const PrecisionArea = lazy(() =>
  import('../features/precision/PrecisionArea').then((m) => ({ default: m.PrecisionArea })),
);
const ToolsArea = lazy(() => import('../features/tools/ToolsArea').then((m) => ({ default: m.ToolsArea })));
const CostsArea = lazy(() => import('../features/costs/CostsArea').then((m) => ({ default: m.CostsArea })));
const DeviceManagementArea = lazy(() =>
  import('../features/firmware/DeviceManagementArea').then((m) => ({ default: m.DeviceManagementArea })),
);
const AppliancesPage = lazy(() =>
  import('../features/appliances/AppliancesPage').then((m) => ({ default: m.AppliancesPage })),
);
const AnomaliesPage = lazy(() =>
  import('../features/anomalies/AnomaliesPage').then((m) => ({ default: m.AnomaliesPage })),
);
const SiteMapsArea = lazy(() =>
  import('../features/sitemaps/SiteMapsArea').then((m) => ({ default: m.SiteMapsArea })),
);
const ApplicationsArea = lazy(() =>
  import('../features/usermanager/ApplicationsArea').then((m) => ({ default: m.ApplicationsArea })),
);

/** A spinner in plain CSS (the look of the library's large one), shown while a chunk loads. */
function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="page-loader" role="status" aria-label={t('common.loading')}>
      <span className="page-loader__dots" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** Saves every route change (except to login) and wraps the whole tree. */
function Root() {
  const { pathname } = useLocation();
  useEffect(() => rememberRoute(pathname), [pathname]);
  return <Outlet />;
}

/** The index of the signed-in frame: the selected device's default route. */
function DefaultRoute() {
  const device = useSelectedDevice();
  return <Navigate to={defaultRouteForType(device?.type)} replace />;
}

/** Unknown paths: the default route when signed in, otherwise the login page. */
function Fallback() {
  const user = useAuthUser();
  return <Navigate to={isSessionValid(user, Date.now()) ? DEFAULT_ROUTE : LOGIN_ROUTE} replace />;
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      {
        path: LOGIN_ROUTE,
        element: <LoginPage preloadShell={loadShell} />,
      },
      {
        element: (
          <RequireSession>
            <Lazy>
              <MainLayout />
            </Lazy>
          </RequireSession>
        ),
        children: [
          {
            path: 'visualization/*',
            element: (
              <Lazy>
                <VisualizationArea />
              </Lazy>
            ),
          },
          {
            path: 'applied-precision/*',
            element: (
              <Lazy>
                <PrecisionArea />
              </Lazy>
            ),
          },
          {
            path: 'tools/*',
            element: (
              <Lazy>
                <ToolsArea />
              </Lazy>
            ),
          },
          {
            path: 'costs/*',
            element: (
              <Lazy>
                <CostsArea />
              </Lazy>
            ),
          },
          {
            path: 'devices/*',
            element: (
              <Lazy>
                <DeviceManagementArea />
              </Lazy>
            ),
          },
          {
            path: 'appliances',
            element: (
              <Lazy>
                <AppliancesPage />
              </Lazy>
            ),
          },
          {
            path: 'anomalies',
            element: (
              <Lazy>
                <AnomaliesPage />
              </Lazy>
            ),
          },
          {
            path: 'site-maps/*',
            element: (
              <Lazy>
                <SiteMapsArea />
              </Lazy>
            ),
          },
          {
            path: 'applications/*',
            element: (
              <Lazy>
                <ApplicationsArea />
              </Lazy>
            ),
          },
          {
            path: EDIT_PROFILE_ROUTE,
            element: (
              <RequireMainUser>
                <Lazy>
                  <EditProfilePage />
                </Lazy>
              </RequireMainUser>
            ),
          },
          {
            path: INTEGRATION_TOKENS_ROUTE,
            element: (
              <Lazy>
                <IntegrationTokensPage />
              </Lazy>
            ),
          },
          { index: true, element: <DefaultRoute /> },
        ],
      },
      { path: '*', element: <Fallback /> },
    ],
  },
]);
