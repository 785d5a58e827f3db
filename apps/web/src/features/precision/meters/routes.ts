/** Paths of the meter screens of the applied-precision area (seed 001 section 2). */
export const METERS_LIST_ROUTE = '/applied-precision/meters';
export const METER_ADD_ROUTE = '/applied-precision/meter/add';
export const METER_TESTS_ROUTE = '/applied-precision/meter/tests/:meter_id';

/** Route names of the seed, for the screens that link to each other. */
export const METER_ROUTE_NAMES = {
  meters_list: METERS_LIST_ROUTE,
  meter_add: METER_ADD_ROUTE,
  meter_tests: METER_TESTS_ROUTE,
} as const;

/** The tests page of one meter. */
export function meterTestsUrl(meterId: number): string {
  return METER_TESTS_ROUTE.replace(':meter_id', String(meterId));
}
