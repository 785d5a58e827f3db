import { Navigate, Route, Routes } from 'react-router';
import { GraphToolbar } from '../telemetry/GraphToolbar';
import { MonitoringPage } from './MonitoringPage';
import { NotificationsPage } from './NotificationsPage';
import { MONITORING_ROUTE } from './routes';

/** Routes of the tools area (seed 001 section 2): any signed-in user. */
export function ToolsArea() {
  return (
    <Routes>
      <Route index element={<Navigate to={MONITORING_ROUTE} replace />} />
      <Route
        path="monitoring"
        element={
          <>
            <GraphToolbar granularity="week" showSource={false} />
            <MonitoringPage />
          </>
        }
      />
      <Route
        path="notifications"
        element={
          <>
            <GraphToolbar showSource={false} />
            <NotificationsPage />
          </>
        }
      />
      <Route path="*" element={<Navigate to={MONITORING_ROUTE} replace />} />
    </Routes>
  );
}
