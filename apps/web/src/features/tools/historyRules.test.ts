import { describe, expect, it } from 'vitest';
import { chartTarget, historyRequest, HISTORY_PAGE_SIZE } from './historyRules';

const TZ = 'Europe/Bratislava';
/** 15 January 2026 00:30 in Bratislava (23:30 UTC the day before). */
const JUST_AFTER_MIDNIGHT = Date.UTC(2026, 0, 14, 23, 30);

describe('historyRequest', () => {
  it('asks for the newest page of everything when nothing is chosen', () => {
    expect(historyRequest('u', { types: [] }, undefined)).toEqual({
      user_token: 'u',
      limit: HISTORY_PAGE_SIZE,
    });
  });

  it('sends each chosen filter, whole days in milliseconds, and the cursor', () => {
    expect(
      historyRequest(
        'u',
        { deviceToken: 'd', types: ['NILM', 'STATUS'], range: { from: 100, to: 199 }, read: 'UNREAD' },
        42,
      ),
    ).toEqual({
      user_token: 'u',
      limit: HISTORY_PAGE_SIZE,
      device_token: 'd',
      types: ['NILM', 'STATUS'],
      from_ms: 100_000,
      to_ms: 199_999,
      read: 'UNREAD',
      before_id: 42,
    });
  });
});

describe('chartTarget', () => {
  it.each([
    ['a household meter status change', 'STATUS', 1, '/visualization/profile/power/active'],
    ['an appliance event', 'NILM', 1, '/visualization/profile/power/active'],
    ['a disconnector event', 'DISCONNECTOR', 2, '/visualization/profile/current'],
  ] as const)('opens %s on its profile', (_what, type, deviceType, route) => {
    expect(chartTarget(type, deviceType, JUST_AFTER_MIDNIGHT, TZ).route).toBe(route);
  });

  it('shows the whole local day of the event, not the UTC day', () => {
    const { range } = chartTarget('STATUS', 1, JUST_AFTER_MIDNIGHT, TZ);
    expect(range).toEqual({
      key: '15.1. - 15.1.',
      from: Date.UTC(2026, 0, 14, 23, 0) / 1000,
      to: Date.UTC(2026, 0, 15, 23, 0) / 1000 - 1,
    });
  });
});
