import type { ReactNode } from 'react';
import { GraphToolbar } from '../../telemetry/GraphToolbar';
import { MeterAddPage } from './MeterAddPage';
import { MeterTestsPage } from './MeterTestsPage';
import { MetersListPage } from './MetersListPage';

/** Paths of the meter screens relative to /applied-precision (seed 001 section 2). */
export type MeterPath = 'meters' | 'meter/add' | 'meter/tests/:meter_id';

/**
 * What each meter screen shows, by its path under /applied-precision. The list has the device
 * toolbar without source or date menu; the wizard and the tests are reached from the list.
 */
export const meterElements: Record<MeterPath, ReactNode> = {
  meters: (
    <>
      <GraphToolbar showSource={false} />
      <MetersListPage />
    </>
  ),
  'meter/add': <MeterAddPage />,
  'meter/tests/:meter_id': <MeterTestsPage />,
};

/** A meter screen: the seed's route name, its path under /applied-precision, its element. */
export interface MeterRoute {
  name: 'meters_list' | 'meter_add' | 'meter_tests';
  path: MeterPath;
  element: ReactNode;
}

/** The same screens as a route table, for a router that lists routes rather than a map. */
export const meterRoutes: readonly MeterRoute[] = [
  { name: 'meters_list', path: 'meters', element: meterElements.meters },
  { name: 'meter_add', path: 'meter/add', element: meterElements['meter/add'] },
  { name: 'meter_tests', path: 'meter/tests/:meter_id', element: meterElements['meter/tests/:meter_id'] },
];
