import { describe, expect, it } from 'vitest';
import { canUseIntegrationTokens } from './routes';
import { curlExample, expiryAfterDay, integrationApiUrl, isExpired } from './tokenRules';

describe('integration token rules', () => {
  it.each([
    [{ id: 1, user: 'alice' }, true],
    [{ id: 2, user: 'demo' }, true],
    [{ id: 1, user: 'demo' }, false],
    [null, false],
  ] as const)('%o may make tokens: %s', (user, allowed) => {
    expect(canUseIntegrationTokens(user)).toBe(allowed);
  });

  it.each([
    [{ y: 2026, m: 3, d: 28 }, 'Europe/Bratislava', '2026-03-28T23:00:00Z'],
    [{ y: 2026, m: 3, d: 29 }, 'Europe/Bratislava', '2026-03-29T22:00:00Z'],
    [{ y: 2026, m: 12, d: 31 }, 'UTC', '2027-01-01T00:00:00Z'],
  ])('a token valid until %o in %s ends at %s', (day, tz, iso) => {
    expect(expiryAfterDay(day, tz)).toBe(Date.parse(iso) / 1000);
  });

  it('tells an expired token by its end', () => {
    expect(isExpired(null, 1e15)).toBe(false);
    expect(isExpired(100, 99_999)).toBe(false);
    expect(isExpired(100, 100_000)).toBe(true);
  });

  it('builds the example from a relative or absolute read base', () => {
    expect(integrationApiUrl('/api/read', 'https://portal.example', '/devices')).toBe(
      'https://portal.example/api/read/v1/devices',
    );
    expect(integrationApiUrl('https://read.example/api/read/', 'https://portal.example', '/devices')).toBe(
      'https://read.example/api/read/v1/devices',
    );
    expect(curlExample('https://x/v1/devices', 'mpt_abc')).toBe(
      'curl -H "Authorization: Bearer mpt_abc" "https://x/v1/devices"',
    );
  });
});
