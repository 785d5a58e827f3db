import { ErrorCode } from '@meterportal/protocol';
import { isApiError } from '../../api/http';

/** The two device commands of the area. */
export type PrecisionCommand = 'harmonics' | 'waveform';

export type CommandErrorKey = 'common.device_not_responding' | 'common.api_communication_error';

/**
 * Message of a failed harmonics or waveform call (seed 001 section 8): 604 says the device is not
 * responding or is offline, any other error with a response is an API communication error.
 * Harmonics ignores errors without a response (network failure, cancelled on leaving); waveform
 * assumes one exists, so it reports them as a communication error, except a cancellation.
 */
export function commandErrorKey(error: unknown, command: PrecisionCommand): CommandErrorKey | null {
  if (error instanceof DOMException && error.name === 'AbortError') return null;
  const withResponse = isApiError(error) && error.httpStatus > 0;
  if (withResponse && error.code === ErrorCode.DeviceNotResponding) return 'common.device_not_responding';
  if (withResponse) return 'common.api_communication_error';
  return command === 'harmonics' ? null : 'common.api_communication_error';
}
