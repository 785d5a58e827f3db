import { Navigate, Route, Routes } from 'react-router';
import { GraphToolbar } from '../telemetry/GraphToolbar';
import { AlarmsPage } from './AlarmsPage';
import { MonitoringPage } from './MonitoringPage';
import { NotificationHistoryPage } from './NotificationHistoryPage';
import { NotificationsPage } from './NotificationsPage';
import { MONITORING_ROUTE } from './routes';
import { ReportsPage } from '../reports/ReportsPage';

/** Routes of the tools area (seed 001 section 2): any signed-in user. */
export function ToolsArea() {
  return (
    <Routes>
      <Route index element={<Navigate to={MONITORING_ROUTE} replace />} />
      <Route path="reports" element={<ReportsPage />} />
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
      <Route path="notification-history" element={<NotificationHistoryPage />} />
      <Route
        path="alarms"
        element={
          <>
            <GraphToolbar showSource={false} />
            <AlarmsPage />
          </>
        }
      />
      <Route path="*" element={<Navigate to={MONITORING_ROUTE} replace />} />
    </Routes>
  );
}
