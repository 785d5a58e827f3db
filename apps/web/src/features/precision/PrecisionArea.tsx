import type { ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { GraphToolbar } from '../telemetry/GraphToolbar';
import { RequirePrecisionDevice } from '../telemetry/RequirePrecisionDevice';
import { DashboardPage } from './DashboardPage';
import { HarmonicsPage } from './HarmonicsPage';
import { meterElements } from './meters';
import { PRECISION_SCREENS, precisionUrl, type PrecisionPath } from './routes';
import { VectorPage } from './VectorPage';
import { WaveformPage } from './WaveformPage';
import { PowerQualityPage } from '../powerquality/PowerQualityPage';

/**
 * The area's route table: every screen of routes.ts with what it shows. The toolbar picks the
 * device; none of these screens has a data-source menu.
 */
const SCREENS: Record<PrecisionPath, ReactNode> = {
  dashboard: (
    <>
      <GraphToolbar showSource={false} />
      <DashboardPage />
    </>
  ),
  vector: (
    <>
      <GraphToolbar showSource={false} />
      <VectorPage />
    </>
  ),
  harmonics: (
    <>
      <GraphToolbar showSource={false} />
      <HarmonicsPage />
    </>
  ),
  waveform: (
    <>
      <GraphToolbar showSource={false} />
      <WaveformPage />
    </>
  ),
  'power-quality': (
    <>
      <GraphToolbar showSource={false} />
      <PowerQualityPage />
    </>
  ),
  ...meterElements,
};

const DASHBOARD = precisionUrl('dashboard');

/**
 * Routes of the applied-precision area (seed 001 section 2), one lazily loaded chunk. The default
 * and unknown paths go to the dashboard; every screen needs a selected precision device (type 3).
 */
export function PrecisionArea() {
  return (
    <Routes>
      <Route index element={<Navigate to={DASHBOARD} replace />} />
      <Route
        element={
          <RequirePrecisionDevice>
            <Outlet />
          </RequirePrecisionDevice>
        }
      >
        {PRECISION_SCREENS.map((s) => (
          <Route key={s.path} path={s.path} element={SCREENS[s.path]} />
        ))}
      </Route>
      <Route path="*" element={<Navigate to={DASHBOARD} replace />} />
    </Routes>
  );
}
