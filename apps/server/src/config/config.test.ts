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
    [{ TRUST_PROXY: 'proxy.example.org' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '127.0.0.1,300.1.1.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'fd00::/129' }, 'TRUST_PROXY'],
    [{ HARMONICS_POLL_SEC: '5' }, 'HARMONICS_POLL_SEC'],
    [{ HARMONICS_POLL_SEC: '3601' }, 'HARMONICS_POLL_SEC'],
    [{ HARMONICS_POLL_SEC: '60.5' }, 'HARMONICS_POLL_SEC'],
  ])('names the bad variable in %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('keeps device accounts in the broker only with an external broker', () => {
    expect(() => loadConfig({ MQTT_DYNSEC: 'true' })).toThrow(/MQTT_DYNSEC: needs MQTT_URL/);
    expect(
      loadConfig({ MQTT_DYNSEC: 'true', MQTT_URL: 'mqtt://portal:secret@broker:1883' }).MQTT_DYNSEC,
    ).toBe(true);
    expect(loadConfig({}).MQTT_DYNSEC).toBe(false);
  });

  it('trusts no proxy unless told, and reads a list of addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,::1, fd00::/8,loopback' }).TRUST_PROXY).toEqual(
      ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback'],
    );
  });

  it("polls the analyzers' harmonic spectra every 10 minutes unless told", () => {
    expect(loadConfig({}).HARMONICS_POLL_SEC).toBe(600);
    expect(loadConfig({ HARMONICS_POLL_SEC: '60' }).HARMONICS_POLL_SEC).toBe(60);
  });

  it('selects a subset of roles', () => {
    expect([...loadConfig({ ROLES: 'read, ws' }).roles]).toEqual(['read', 'ws']);
  });
});
