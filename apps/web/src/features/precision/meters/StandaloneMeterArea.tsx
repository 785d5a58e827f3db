import { Navigate, Route, Routes } from 'react-router';
import { RequirePrecisionDevice } from '../../telemetry/RequirePrecisionDevice';
import { meterRoutes } from './meterRoutes';
import { METERS_LIST_ROUTE } from './routes';

/**
 * Temporary mount of the meter screens until the applied-precision area (PrecisionArea) reaches
 * main; it then mounts meterRoutes itself and this file goes.
 */
export function StandaloneMeterArea() {
  return (
    <RequirePrecisionDevice>
      <Routes>
        {meterRoutes.map((r) => (
          <Route key={r.name} path={r.path} element={r.element} />
        ))}
        <Route path="*" element={<Navigate to={METERS_LIST_ROUTE} replace />} />
      </Routes>
    </RequirePrecisionDevice>
  );
}
