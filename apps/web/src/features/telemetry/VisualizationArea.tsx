import { Navigate, Route, Routes } from 'react-router';
import { useSelectedDevice } from '../devices/selection';
import { EnergyChart } from './EnergyChart';
import { GraphToolbar } from './GraphToolbar';
import { ProfileChart } from './ProfileChart';
import { RealtimeChart } from './RealtimeChart';
import { RequireMeasuredView } from './RequireMeasuredView';
import {
  DEFAULT_VISUALIZATION_ROUTE,
  ENERGY_VIEWS,
  PROFILE_VIEWS,
  REALTIME_VIEWS,
  defaultViewUrl,
} from './views';

/** The default and unknown paths open the selected device's default view. */
function DefaultView() {
  const device = useSelectedDevice();
  return <Navigate to={device ? defaultViewUrl(device.type) : DEFAULT_VISUALIZATION_ROUTE} replace />;
}

/**
 * Routes of the visualization area (seed 000 section 2), one lazily loaded chunk. Every metering
 * type has the views of the quantities it measures; each route checks its own.
 */
export function VisualizationArea() {
  return (
    <Routes>
      <Route index element={<DefaultView />} />
      <Route path="realtime" element={<DefaultView />} />
      {REALTIME_VIEWS.map((v) => (
        <Route
          key={v.path}
          path={v.path}
          element={
            <RequireMeasuredView view={v}>
              <GraphToolbar showSource={false} />
              <RealtimeChart key={v.path} view={v} />
            </RequireMeasuredView>
          }
        />
      ))}
      {PROFILE_VIEWS.map((v) => (
        <Route
          key={v.path}
          path={v.path}
          element={
            <RequireMeasuredView view={v}>
              <GraphToolbar granularity="day" showSource={v.withSource} />
              <ProfileChart key={v.path} view={v} />
            </RequireMeasuredView>
          }
        />
      ))}
      {ENERGY_VIEWS.map((v) => (
        <Route
          key={v.path}
          path={v.path}
          element={
            <RequireMeasuredView view={v}>
              <GraphToolbar granularity={v.granularity} />
              <EnergyChart key={v.path} view={v} />
            </RequireMeasuredView>
          }
        />
      ))}
      <Route path="*" element={<DefaultView />} />
    </Routes>
  );
}
