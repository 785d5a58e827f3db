import { describe, expect, it } from 'vitest';
import { DIFFERENT_USERNAME, applyState, connectionLevel, keepLatest, shouldReconnect } from './liveRules';

describe('live rules', () => {
  it('reconnects up to 200 attempts unless failed or left', () => {
    expect(shouldReconnect(0, false, false)).toBe(true);
    expect(shouldReconnect(199, false, false)).toBe(true);
    expect(shouldReconnect(200, false, false)).toBe(false);
    expect(shouldReconnect(1, true, false)).toBe(false);
    expect(shouldReconnect(1, false, true)).toBe(false);
  });

  it('takes the status only from messages of the current user', () => {
    expect(applyState({ user: 'alice', status: 'ONLINE', connection: 'BT_MQTT_DB' }, 'alice').status).toBe(
      'ONLINE',
    );
    expect(applyState({ user: 'bob', status: 'ONLINE' }, 'alice').status).toBe(DIFFERENT_USERNAME);
  });

  it.each([
    [{ status: 'ONLINE', connection: 'BT_MQTT_DB' }, 2],
    [{ status: 'ONLINE', connection: 'MQTT' }, 1],
    [{ status: DIFFERENT_USERNAME }, 2],
    [{ status: 'OFFLINE' }, 0],
    [undefined, 0],
  ])('indicator level of %j is %i', (rt, level) => {
    expect(connectionLevel(rt)).toBe(level);
  });

  it('keeps the five latest notifications, newest first', () => {
    let list: number[] = [];
    for (let i = 1; i <= 7; i++) list = keepLatest(list, i);
    expect(list).toEqual([7, 6, 5, 4, 3]);
  });
});
