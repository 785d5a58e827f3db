import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';
import { HarmonicsResult, WaveformResult } from './mqtt-commands';

/** Body of POST /applied-precision/harmonics and /waveform. */
export const DeviceCommandRequest = z.object({ device_token: DeviceTokenString });
/** Answer of POST /applied-precision/harmonics: data.U and data.I with L1..L3 values (% of fundamental). */
export const HarmonicsResponse = okWith(HarmonicsResult);
/** Answer of POST /applied-precision/waveform: one period of V and A samples per phase. */
export const WaveformResponse = okWith(WaveformResult);

/** Body of POST /devices/firmware-upgrade. */
export const FirmwareUpgradeRequest = z.object({
  token: DeviceTokenString,
  fw: z.string().regex(/^[0-9A-Za-z._-]{1,40}$/),
});
/** Body of POST /devices/relay. */
export const RelayRequest = z.object({ token: DeviceTokenString, state: z.enum(['OPEN', 'CLOSED']) });
/** Answer of POST /devices/relay. */
export const RelayResponse = okWith(z.object({ state: z.enum(['OPEN', 'CLOSED']) }));
