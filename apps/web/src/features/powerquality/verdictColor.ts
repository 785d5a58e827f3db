import type { PqVerdict } from '@meterportal/protocol';

/** Tag colour of a verdict: met green, not met red, the rest neutral. */
export const VERDICT_COLOR: Record<PqVerdict, string> = {
  PASS: 'green',
  FAIL: 'red',
  NO_DATA: 'default',
  NOT_MEASURED: 'default',
};
