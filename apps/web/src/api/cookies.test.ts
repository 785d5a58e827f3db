import { describe, expect, it } from 'vitest';
import { cookieAssignment, readCookie } from './cookies';

describe('cookies', () => {
  it('reads a named cookie among others and decodes it', () => {
    expect(readCookie('a=1; settings=%7B%22x%22%3A1%7D; b=2', 'settings')).toBe('{"x":1}');
    expect(readCookie('a=1', 'settings')).toBeUndefined();
  });

  it('sets the settings cookie to expire after 30 days', () => {
    const now = Date.UTC(2026, 0, 1);
    const s = cookieAssignment('settings', '{}', 30, now);
    expect(s).toContain(`expires=${new Date(Date.UTC(2026, 0, 31)).toUTCString()}`);
    expect(cookieAssignment('x', 'y', undefined, now)).not.toContain('expires');
  });
});
