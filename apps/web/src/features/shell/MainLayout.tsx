import { APP_VERSION } from '@meterportal/protocol';
import { Drawer, Grid, Layout, Modal, Spin, theme } from 'antd';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { registerModal } from '../../api/notify';
import { LOGIN_ROUTE } from '../../app/routeTitles';
import { updateSettings, useSettings } from '../../app/settings';
import { signOut } from '../auth/signOut';
import { useIdpRenewal } from '../auth/useIdpRenewal';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { queryClient } from '../../api/queryClient';
import { useDeviceListRefresh } from '../auth/api';
import { hierarchyKeys, useHierarchyQuery } from '../devices/api';
import { BrandMark, SideMenu } from './SideMenu';
import { TopBar } from './TopBar';
import { useLiveSession } from './useLiveSession';
import { useSessionEnd } from './useSessionEnd';

/**
 * The signed-in frame with the query client around it: only signed-in screens query the server,
 * so TanStack Query loads with the shell chunk rather than with the sign-in page.
 */
export function MainLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <MainFrame />
    </QueryClientProvider>
  );
}

/** The signed-in frame: sidebar, top bar, main panel with its loader overlay, and footer. */
function MainFrame() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  // antd's lg breakpoint is 992 px: below it (991 px and less) the mobile layout applies.
  const mobile = screens.lg === false;
  const sideBarMax = useSettings((s) => s.sideBarMax);
  const mode = useSettings((s) => s.theme);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const hierarchy = useHierarchyQuery();
  const [modal, modalHolder] = Modal.useModal();
  useEffect(() => {
    registerModal(modal);
    return () => registerModal(undefined);
  }, [modal]);
  const qc = useQueryClient();
  // A changed device list re-aligns the hierarchy (new devices added, removed ones dropped).
  useDeviceListRefresh(() => void qc.invalidateQueries({ queryKey: hierarchyKeys.all }));

  const onSignOut = useCallback(() => {
    void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
  }, [navigate]);
  useIdpRenewal(onSignOut);
  useLiveSession();
  useSessionEnd();

  const collapsed = !sideBarMax;
  const toggle = () => (mobile ? setDrawerOpen((o) => !o) : updateSettings({ sideBarMax: !sideBarMax }));
  // The first hierarchy load decides the selected device, so the panel waits for it.
  const loading = hierarchy.isLoading;

  return (
    <>
      {modalHolder}
      <Layout style={{ minHeight: '100vh' }}>
        {!mobile && (
          <Layout.Sider
            width={260}
            collapsedWidth={72}
            collapsed={collapsed}
            trigger={null}
            theme={mode === 'dark' ? 'dark' : 'light'}
            style={{
              borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
              overflow: 'auto',
              height: '100vh',
              position: 'sticky',
              top: 0,
            }}
          >
            <BrandMark collapsed={collapsed} />
            <SideMenu collapsed={collapsed} />
          </Layout.Sider>
        )}
        {mobile && (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            size={280}
            title={t('shell.menu')}
            styles={{ body: { padding: 0 } }}
          >
            <SideMenu collapsed={false} onNavigate={() => setDrawerOpen(false)} />
          </Drawer>
        )}
        <Layout>
          <Layout.Header
            style={{
              background: token.colorBgContainer,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
              paddingInline: mobile ? 8 : 16,
              position: 'sticky',
              top: 0,
              zIndex: 10,
            }}
          >
            <TopBar collapsed={mobile ? !drawerOpen : collapsed} onToggleMenu={toggle} />
          </Layout.Header>
          <Layout.Content style={{ padding: mobile ? 8 : 16, position: 'relative' }}>
            {loading && (
              <div className="loader-overlay" style={{ background: token.colorBgLayout }}>
                <Spin size="large" />
              </div>
            )}
            <Suspense
              fallback={
                <div className="loader-overlay" style={{ background: token.colorBgLayout }}>
                  <Spin size="large" />
                </div>
              }
            >
              {!loading && <Outlet />}
            </Suspense>
          </Layout.Content>
          <Layout.Footer
            style={{ textAlign: 'center', padding: '12px 16px', color: token.colorTextSecondary }}
          >
            {t('shell.version', { version: APP_VERSION })}
          </Layout.Footer>
        </Layout>
      </Layout>
    </>
  );
}
