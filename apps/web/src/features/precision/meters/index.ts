// The meter half of the applied-precision area: pages and the route table to mount them with.
export { MeterAddPage } from './MeterAddPage';
export { MeterTestsPage } from './MeterTestsPage';
export { MetersListPage } from './MetersListPage';
export { meterElements, meterRoutes, type MeterPath, type MeterRoute } from './meterRoutes';
export {
  METERS_LIST_ROUTE,
  METER_ADD_ROUTE,
  METER_ROUTE_NAMES,
  METER_TESTS_ROUTE,
  meterTestsUrl,
} from './routes';
