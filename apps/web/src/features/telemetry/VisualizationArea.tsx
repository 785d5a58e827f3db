import { Navigate, Outlet, Route, Routes } from 'react-router';
import { EnergyChart } from './EnergyChart';
import { GraphToolbar } from './GraphToolbar';
import { ProfileChart } from './ProfileChart';
import { RealtimeChart } from './RealtimeChart';
import { RequirePrecisionDevice } from './RequirePrecisionDevice';
import { DEFAULT_VISUALIZATION_ROUTE, ENERGY_VIEWS, PROFILE_VIEWS, REALTIME_VIEWS } from './views';

/**
 * Routes of the visualization area (seed 000 section 2), one lazily loaded chunk. The default and
 * unknown paths redirect before the precision-device check, so /visualization always lands on a
 * real view (with its title) even while a device of another type is selected.
 */
export function VisualizationArea() {
  return (
    <Routes>
      <Route index element={<Navigate to={DEFAULT_VISUALIZATION_ROUTE} replace />} />
      <Route path="realtime" element={<Navigate to={DEFAULT_VISUALIZATION_ROUTE} replace />} />
      <Route
        element={
          <RequirePrecisionDevice>
            <Outlet />
          </RequirePrecisionDevice>
        }
      >
        {REALTIME_VIEWS.map((v) => (
          <Route
            key={v.path}
            path={v.path}
            element={
              <>
                <GraphToolbar showSource={false} />
                <RealtimeChart key={v.path} view={v} />
              </>
            }
          />
        ))}
        {PROFILE_VIEWS.map((v) => (
          <Route
            key={v.path}
            path={v.path}
            element={
              <>
                <GraphToolbar granularity="day" showSource={v.withSource} />
                <ProfileChart key={v.path} view={v} />
              </>
            }
          />
        ))}
        {ENERGY_VIEWS.map((v) => (
          <Route
            key={v.path}
            path={v.path}
            element={
              <>
                <GraphToolbar granularity={v.granularity} />
                <EnergyChart key={v.path} view={v} />
              </>
            }
          />
        ))}
      </Route>
      <Route path="*" element={<Navigate to={DEFAULT_VISUALIZATION_ROUTE} replace />} />
    </Routes>
  );
}
