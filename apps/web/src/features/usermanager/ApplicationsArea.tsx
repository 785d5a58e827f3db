import { Application } from '@meterportal/protocol';
import { Empty, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router';
import { DEFAULT_ROUTE } from '../../app/routeMemory';
import { useAuthUser } from '../auth/session';
import { useApplicationAccessQuery } from './api';
import { USER_MANAGER_ROUTE } from './routes';
import { UserManagerPage } from './UserManagerPage';
import { DeviceRegistrationPage } from './registration/DeviceRegistrationPage';

/**
 * The applications area (seed 001 sections 2 and 6): the base path goes to the user manager when
 * USER_MANAGER is granted, stays when another application is, and falls back without any.
 */
export function ApplicationsArea() {
  const { t } = useTranslation();
  const user = useAuthUser();
  const applications = user?.applications ?? [];
  if (applications.length === 0) return <Navigate to={DEFAULT_ROUTE} replace />;
  const base = applications.includes(Application.UserManager) ? (
    <Navigate to={USER_MANAGER_ROUTE} replace />
  ) : (
    <Empty description={t('usermanager.no_application')} />
  );
  return (
    <Routes>
      <Route index element={base} />
      <Route
        path="user-manager"
        element={
          <RequireApplication application={Application.UserManager}>
            <UserManagerPage />
          </RequireApplication>
        }
      />
      <Route
        path="user-manager/devices"
        element={
          <RequireApplication application={Application.UserManager}>
            <DeviceRegistrationPage />
          </RequireApplication>
        }
      />
      <Route path="*" element={<Navigate to="/applications" replace />} />
    </Routes>
  );
}

/** The server decides: any failed access check leaves for the dashboard (or login on 601). */
function RequireApplication({ application, children }: { application: string; children: ReactNode }) {
  const access = useApplicationAccessQuery(application);
  if (access.isError) return <Navigate to={DEFAULT_ROUTE} replace />;
  if (!access.data) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  return <>{children}</>;
}
