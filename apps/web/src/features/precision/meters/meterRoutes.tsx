import type { ReactNode } from 'react';
import { GraphToolbar } from '../../telemetry/GraphToolbar';
import { MeterAddPage } from './MeterAddPage';
import { MeterTestsPage } from './MeterTestsPage';
import { MetersListPage } from './MetersListPage';

/** A meter screen under /applied-precision: the seed's route name, its relative path, its element. */
export interface MeterRoute {
  name: 'meters_list' | 'meter_add' | 'meter_tests';
  path: string;
  element: ReactNode;
}

/**
 * The meter screens, relative to /applied-precision, for the area's router:
 * `{meterRoutes.map((r) => <Route key={r.name} path={r.path} element={r.element} />)}`.
 * The list has the device toolbar without source or date menu (seed 001 section 2).
 */
export const meterRoutes: readonly MeterRoute[] = [
  {
    name: 'meters_list',
    path: 'meters',
    element: (
      <>
        <GraphToolbar showSource={false} />
        <MetersListPage />
      </>
    ),
  },
  { name: 'meter_add', path: 'meter/add', element: <MeterAddPage /> },
  { name: 'meter_tests', path: 'meter/tests/:meter_id', element: <MeterTestsPage /> },
];
