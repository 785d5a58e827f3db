import { OWNER_LIFETIME_SEC } from '@meterportal/protocol';
import { describe, expect, it } from 'vitest';
import {
  canAddDevice,
  generatePassword,
  isOwnerLifeTime,
  lifeTimeFor,
  loginMixesScripts,
  sortByLogin,
} from './userRules';

describe('new login scripts', () => {
  it.each([
    ['admin', false],
    ['Иван', false],
    ['Σωκράτης', false],
    ['用户01', false],
    ['ｎｅｗｂｉｅ', false],
    ['аdmin', true],
    ['nеwbie', true],
    ['pοrtal', true],
    ['Иванσ', true],
  ])('%s mixes look-alike scripts: %s', (login, mixed) => {
    expect(loginMixesScripts(login)).toBe(mixed);
  });
});

describe('generated password', () => {
  it('has 14 letters and digits', () => {
    for (let i = 0; i < 200; i++) expect(generatePassword()).toMatch(/^[A-Za-z0-9]{14}$/);
  });

  it('skips bytes that would bias the alphabet', () => {
    // 248..255 are above the last full multiple of 62 and must be dropped.
    let call = 0;
    const rng = (a: Uint8Array) => {
      a.fill(call++ === 0 ? 250 : 0);
      return a;
    };
    expect(generatePassword(rng)).toBe('AAAAAAAAAAAAAA');
  });

  it('maps bytes onto letters then digits', () => {
    const rng = (a: Uint8Array) => a.map((_, i) => [0, 26, 52, 61][i % 4]!);
    expect(generatePassword(rng, 4)).toBe('Aa09');
  });
});

describe('validity to lifeTime', () => {
  const now = Date.UTC(2026, 0, 1) + 999;
  const nowSec = Date.UTC(2026, 0, 1) / 1000;
  it.each([
    ['owner', OWNER_LIFETIME_SEC],
    [2592000, nowSec + 2592000],
    [15724800, nowSec + 15724800],
    [31536000, nowSec + 31536000],
    [63072000, nowSec + 63072000],
  ] as const)('turns %s into its expiry', (validity, expected) => {
    expect(lifeTimeFor(validity, now)).toBe(expected);
  });

  it('recognises the owner expiry', () => {
    expect(isOwnerLifeTime(OWNER_LIFETIME_SEC)).toBe(true);
    expect(isOwnerLifeTime(nowSec + 63072000)).toBe(false);
  });
});

describe('device limit', () => {
  it.each([
    [0, true],
    [14, true],
    [15, false],
    [16, false],
  ])('with %i devices adding is %s', (n, ok) => {
    expect(canAddDevice(n)).toBe(ok);
  });
});

describe('login sort', () => {
  const users = [{ login: 'bob' }, { login: 'alice' }, { login: 'carol' }];
  it('sorts descending and ascending', () => {
    expect(sortByLogin(users, 'descend').map((u) => u.login)).toEqual(['carol', 'bob', 'alice']);
    expect(sortByLogin(users, 'ascend').map((u) => u.login)).toEqual(['alice', 'bob', 'carol']);
  });
});
