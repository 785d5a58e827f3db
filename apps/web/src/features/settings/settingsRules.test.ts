import { describe, expect, it } from 'vitest';
import { SETTINGS_LIMITS } from '@meterportal/protocol';
import {
  ipProblem,
  keyProblem,
  passwordProblem,
  rangeProblem,
  ssidProblem,
  staticProblem,
} from './settingsRules';

describe('settings form rules', () => {
  it.each([
    ['', null],
    ['2B7E151628AED2A6ABF7158809CF4F3C', null],
    ['2b7e1516 28aed2a6 abf71588 09cf4f3c', null],
    ['2B7E151628AED2A6ABF7158809CF4F3', 'settings.err_key'],
    ['2B7E151628AED2A6ABF7158809CF4F3G', 'settings.err_key'],
  ])('judges the key %j', (v, key) => {
    expect(keyProblem(v)?.key ?? null).toBe(key);
  });

  it.each([
    [60, true, null],
    [9, true, 'settings.err_range'],
    [90.5, true, 'settings.err_whole'],
    [null, true, 'settings.err_required'],
    [86_401, false, 'settings.err_range'],
  ])('judges the echo interval %j', (v, whole, key) => {
    expect(rangeProblem(v, SETTINGS_LIMITS.echoIntervalSec, whole)?.key ?? null).toBe(key);
  });

  it.each([
    ['192.168.1.20', null],
    ['192.168.1.256', 'settings.err_ip'],
    ['192.168.1', 'settings.err_ip'],
    ['', 'settings.err_required'],
  ])('judges the address %j', (v, key) => {
    expect(ipProblem(v)?.key ?? null).toBe(key);
  });

  it.each([
    [{ address: '10.0.0.5', mask: '255.255.255.0', gateway: '10.0.0.1' }, null],
    [{ address: '10.0.0.5', mask: '255.0.255.0', gateway: '10.0.0.1' }, ['mask', 'settings.err_ip_mask']],
    [
      { address: '10.0.0.0', mask: '255.255.255.0', gateway: '10.0.0.1' },
      ['address', 'settings.err_ip_edge'],
    ],
    [
      { address: '10.0.0.5', mask: '255.255.255.0', gateway: '10.0.1.1' },
      ['gateway', 'settings.err_ip_subnet'],
    ],
    [
      { address: '10.0.0.5', mask: '255.255.255.0', gateway: '10.0.0.5' },
      ['gateway', 'settings.err_ip_host'],
    ],
  ])('judges the static address %j', (ip, expected) => {
    const p = staticProblem(ip);
    expect(p ? [p.field, p.problem.key] : null).toEqual(expected);
  });

  it.each([
    ['', null],
    ['correct horse', null],
    ['short', 'settings.err_password'],
    ['x'.repeat(64), 'settings.err_password'],
  ])('judges the WiFi password %j', (v, key) => {
    expect(passwordProblem(v)?.key ?? null).toBe(key);
  });

  it.each([
    ['Plant floor', null],
    ['', 'settings.err_required'],
    ['x'.repeat(33), 'settings.err_ssid'],
  ])('judges the network name %j', (v, key) => {
    expect(ssidProblem(v)?.key ?? null).toBe(key);
  });
});
