import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_CODE } from '../../api/http';
import { commandErrorKey } from './commandErrors';

const notResponding = new ApiError(604, 'Device not responding or is offline', 504);
const otherWithResponse = new ApiError(605, 'Not found', 404);
const unreadableAnswer = new ApiError(NETWORK_ERROR_CODE, 'unexpected answer (HTTP 502)', 502);
const noResponse = new ApiError(NETWORK_ERROR_CODE, 'Failed to fetch', 0);
const aborted = new DOMException('The operation was aborted.', 'AbortError');

describe('harmonics and waveform errors', () => {
  it.each([
    ['604', notResponding, 'common.device_not_responding'],
    ['another code', otherWithResponse, 'common.api_communication_error'],
    ['an unreadable answer', unreadableAnswer, 'common.api_communication_error'],
    ['no response', noResponse, null],
    ['a cancelled request', aborted, null],
  ])('harmonics with %s shows %s', (_label, error, expected) => {
    expect(commandErrorKey(error, 'harmonics')).toBe(expected);
  });

  it.each([
    ['604', notResponding, 'common.device_not_responding'],
    ['another code', otherWithResponse, 'common.api_communication_error'],
    ['no response', noResponse, 'common.api_communication_error'],
    ['a cancelled request', aborted, null],
  ])('waveform with %s shows %s', (_label, error, expected) => {
    expect(commandErrorKey(error, 'waveform')).toBe(expected);
  });
});
