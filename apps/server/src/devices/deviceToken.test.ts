import { describe, expect, it } from 'vitest';
import { deviceTokenExpire } from '@meterportal/protocol';
import { deviceTokens } from './deviceToken';

const tokens = deviceTokens('k'.repeat(43));
const MAC = '02-4D-50-00-00-01';

describe('device tokens', () => {
  it('round-trips for the user it was signed for, with the expiry after the pipe', () => {
    const t = tokens.sign(7, MAC, 1893456000);
    expect(deviceTokenExpire(t)).toBe(1893456000);
    expect(tokens.verify(7, t)).toEqual({ mac: MAC, expireSec: 1893456000 });
  });

  it.each([
    ['another user', (t: string) => t, 8],
    ['a changed expiry', (t: string) => t.replace(/\|\d+$/, '|1893456001'), 7],
    [
      'a changed mac',
      (t: string) => `${Buffer.from('02-4D-50-00-00-02').toString('base64url')}.${t.split('.')[1]}`,
      7,
    ],
    [
      'a flipped signature character',
      (t: string) => t.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`),
      7,
    ],
    ['garbage', () => 'abc|123', 7],
  ])('refuses %s', (_what, tamper, user) => {
    expect(tokens.verify(user, tamper(tokens.sign(7, MAC, 1893456000)))).toBeNull();
  });

  it('cannot be made from the mac without the secret', () => {
    const other = deviceTokens('z'.repeat(43));
    expect(tokens.verify(7, other.sign(7, MAC, 1893456000))).toBeNull();
  });
});
