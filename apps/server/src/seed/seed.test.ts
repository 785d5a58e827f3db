import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, createTestApp, signIn, type TestApp } from '../test/harness';
import { DEMO_DEVICES, seedIfEmpty } from './seed';

describe.each(DIALECTS)('first start on $name', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { PORTAL_ADMIN_PASSWORD: 'admin-start-pw' } });
  });
  afterAll(() => t.close());

  it('seeds admin with USER_MANAGER, demo, and a device of every type for both', async () => {
    const r = await seedIfEmpty(t.services);
    expect(r).toMatchObject({
      adminLogin: 'admin',
      adminPassword: 'admin-start-pw',
      adminPasswordGenerated: false,
    });
    const admin = await signIn(t.app, 'admin', 'admin-start-pw');
    const demo = await signIn(t.app, 'demo', 'demo');
    expect(admin.devices.map((d) => d.type).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(demo.devices.map((d) => d.type).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(admin.devices.every((d) => d.owner)).toBe(true);
    expect(demo.devices.filter((d) => d.owner).length).toBe(DEMO_DEVICES.filter((d) => d.demoOwner).length);
    const access = await call(
      t.app,
      'POST',
      '/api/read/applications/access',
      { user_token: admin.token, application: 'USER_MANAGER' },
      admin,
    );
    expect(access.json()).toEqual({ status: 'OK' });
  });

  it('seeds nothing on a second start and keeps the data', async () => {
    const admin = await signIn(t.app, 'admin', 'admin-start-pw');
    await call(
      t.app,
      'POST',
      '/api/write/devices/details',
      { token: admin.devices[0]!.token, MRK: 40, RK: 30 },
      admin,
    );
    expect(await seedIfEmpty(t.services)).toBeNull();
    expect(await t.services.repos.users.count()).toBe(2);
    const d = await call(
      t.app,
      'POST',
      '/api/read/devices/details',
      { token: admin.devices[0]!.token },
      admin,
    );
    expect(d.json().data).toEqual({ MRK: 40, RK: 30 });
  });

  it('generates an admin password when none is configured', async () => {
    const other = await createTestApp(dialect);
    const r = await seedIfEmpty(other.services);
    expect(r?.adminPasswordGenerated).toBe(true);
    expect(r?.adminPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    await other.close();
  });
});
