import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.TZ).toBe('Europe/Bratislava');
    expect([...c.roles].sort()).toEqual(['ingest', 'read', 'write', 'ws']);
    expect(c.OIDC_ISSUER).toBe('https://accounts.google.com');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ TZ: 'Mars/Olympus' }, 'TZ'],
    [{ ROLES: 'read,cook' }, 'ROLES'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PORTAL_ADMIN_PASSWORD: 'abc' }, 'PORTAL_ADMIN_PASSWORD'],
  ])('names the bad variable in %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('keeps device accounts in the broker only with an external broker', () => {
    expect(() => loadConfig({ MQTT_DYNSEC: 'true' })).toThrow(/MQTT_DYNSEC: needs MQTT_URL/);
    expect(loadConfig({ MQTT_DYNSEC: 'true', MQTT_URL: 'mqtt://portal:secret@broker:1883' }).MQTT_DYNSEC).toBe(true);
    expect(loadConfig({}).MQTT_DYNSEC).toBe(false);
  });

  it('selects a subset of roles', () => {
    expect([...loadConfig({ ROLES: 'read, ws' }).roles]).toEqual(['read', 'ws']);
  });
});
