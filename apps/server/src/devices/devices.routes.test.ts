import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  signIn,
  snapshot,
  type Client,
  type TestApp,
} from '../test/harness';

const M1 = '02-4D-50-00-00-01';
const M2 = '02-4D-50-00-00-02';
const M9 = '02-4D-50-00-00-09';

const folder = (title: string, id: string, children: unknown[] = []) => ({
  title,
  key: id,
  isLeaf: false,
  data: { id },
  children,
});

const tree = (mac = M1, title = 'House') => ({
  nodes: [
    {
      title: 'Site A',
      key: 'f1',
      isLeaf: false,
      isExpanded: true,
      data: { id: 'f1', isEdited: false, showButton: false },
      children: [{ title, key: mac, isLeaf: true, data: { id: 1, mac, type: 1, desc: 'House' } }],
    },
  ],
  tags: [{ id: 1, title, mac, tags: ['boiler room'], lat: 48.1486, lng: 17.1077 }],
});

describe.each(DIALECTS)('devices on $name', (dialect) => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    aliceId = await addUser(t.services, 'alice', 'alice-secret');
    const bobId = await addUser(t.services, 'bob', 'bob-secret');
    const d1 = await addDevice(t.services, M1, 1, 'House');
    const d2 = await addDevice(t.services, M2, 2, 'Garage');
    await addDevice(t.services, M9, 4, 'Foreign');
    await assign(t.services, aliceId, d1, true);
    await assign(t.services, aliceId, d2, false, 3600);
    await assign(t.services, bobId, d2, true);
    alice = await signIn(t.app, 'alice', 'alice-secret');
    bob = await signIn(t.app, 'bob', 'bob-secret');
  });
  afterAll(() => t.close());

  const tokenOf = (c: Client, mac: string) => c.devices.find((d) => d.mac === mac)!.token;

  describe('hierarchy', () => {
    it('answers 610 while none is saved', async () => {
      const r = await call(
        t.app,
        'POST',
        '/api/read/facility/devices-hierarchy',
        { token: alice.token },
        alice,
      );
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ status: 'ERROR', code: 610 });
    });

    it('saves the menu and reads back nodes and tags', async () => {
      const w = await call(
        t.app,
        'POST',
        '/api/write/facility/devices-hierarchy',
        { token: alice.token, menu: JSON.stringify(tree()) },
        alice,
      );
      expect(w.json()).toEqual({ status: 'OK' });
      const r = await call(
        t.app,
        'POST',
        '/api/read/facility/devices-hierarchy',
        { token: alice.token },
        alice,
      );
      expect(r.json()).toEqual({ status: 'OK', data: tree() });
    });

    it.each([
      ['a 25-character title', JSON.stringify(tree(M1, 'x'.repeat(25))), /menu\.nodes/],
      ['markup in a title', JSON.stringify(tree(M1, '<script>x</script>')), /menu\.nodes/],
      ['text that is not JSON', '{nodes: [', /not valid JSON/],
      ["another user's device", JSON.stringify(tree(M9)), /not among your devices/],
      ['a device that does not exist', JSON.stringify(tree('02-4D-50-00-00-77')), /not among your devices/],
      ['duplicate tag ids', JSON.stringify({ ...tree(), tags: [tree().tags[0], tree().tags[0]] }), /unique/],
      [
        'two top-level folders of one name',
        JSON.stringify({ ...tree(), nodes: [...tree().nodes, folder('Site A', 'f2')] }),
        /two folders named "Site A"/,
      ],
      [
        'two folders of one name in a folder, in other letter case',
        JSON.stringify({
          ...tree(),
          nodes: [folder('Site B', 'f3', [folder('Lab', 'f4'), folder(' lab ', 'f5')]), ...tree().nodes],
        }),
        /two folders named "lab"/,
      ],
    ])('refuses %s and keeps the saved tree', async (_what, menu, message) => {
      const before = await snapshot(t.services);
      const w = await call(
        t.app,
        'POST',
        '/api/write/facility/devices-hierarchy',
        { token: alice.token, menu },
        alice,
      );
      expect(w.statusCode).toBe(400);
      expect(w.json()).toMatchObject({ status: 'ERROR', code: 600, message: expect.stringMatching(message) });
      expect(await snapshot(t.services)).toEqual(before);
    });

    it('accepts one folder name on different levels, and a device named like a folder', async () => {
      const menu = {
        ...tree(M1, 'Site A'),
        nodes: [
          ...tree(M1, 'Site A').nodes,
          folder('Lab', 'f6', [folder('Site A', 'f7', [folder('Lab', 'f8')])]),
        ],
      };
      const w = await call(
        t.app,
        'POST',
        '/api/write/facility/devices-hierarchy',
        { token: alice.token, menu: JSON.stringify(menu) },
        alice,
      );
      expect(w.json()).toEqual({ status: 'OK' });
      const r = await call(
        t.app,
        'POST',
        '/api/write/facility/devices-hierarchy',
        { token: alice.token, menu: JSON.stringify(tree()) },
        alice,
      );
      expect(r.json()).toEqual({ status: 'OK' });
    });

    it('refuses a tree nested deeper than 12 folders', async () => {
      let node: Record<string, unknown> = { title: 'leaf', data: { id: 'x' } };
      for (let i = 0; i < 13; i++) node = { title: `f${i}`, data: { id: `f${i}` }, children: [node] };
      const w = await call(
        t.app,
        'POST',
        '/api/write/facility/devices-hierarchy',
        { token: alice.token, menu: JSON.stringify({ nodes: [node], tags: [] }) },
        alice,
      );
      expect(w.json().message).toMatch(/deeper/);
    });

    it('keeps trees per user', async () => {
      const r = await call(t.app, 'POST', '/api/read/facility/devices-hierarchy', { token: bob.token }, bob);
      expect(r.json().code).toBe(610);
    });
  });

  describe('details (MRK, RK)', () => {
    it('answers 0 until set, then the saved kW values exactly', async () => {
      const token = tokenOf(alice, M1);
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, alice)).json()).toEqual({
        status: 'OK',
        data: { MRK: 0, RK: 0 },
      });
      const w = await call(
        t.app,
        'POST',
        '/api/write/devices/details',
        { token, MRK: 12.345, RK: 99999999.999 },
        alice,
      );
      expect(w.json()).toEqual({ status: 'OK' });
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, alice)).json().data).toEqual({
        MRK: 12.345,
        RK: 99999999.999,
      });
    });

    it.each([
      [{ MRK: 1.2345, RK: 1 }],
      [{ MRK: -1, RK: 1 }],
      [{ MRK: 100000000.001, RK: 1 }],
      [{ MRK: '12', RK: 1 }],
      [{ RK: 1 }],
      [{ MRK: 1, RK: 1.0001 }],
    ])('refuses %j and changes nothing', async (values) => {
      const token = tokenOf(alice, M1);
      const before = await snapshot(t.services);
      const w = await call(t.app, 'POST', '/api/write/devices/details', { token, ...values }, alice);
      expect(w.statusCode).toBe(400);
      expect(w.json().code).toBe(600);
      expect(await snapshot(t.services)).toEqual(before);
    });

    it('lets only the owner write', async () => {
      const token = tokenOf(alice, M2);
      const w = await call(t.app, 'POST', '/api/write/devices/details', { token, MRK: 5, RK: 4 }, alice);
      expect(w.statusCode).toBe(403);
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, alice)).json().data).toEqual({
        MRK: 0,
        RK: 0,
      });
      const own = await call(
        t.app,
        'POST',
        '/api/write/devices/details',
        { token: tokenOf(bob, M2), MRK: 5, RK: 4 },
        bob,
      );
      expect(own.json()).toEqual({ status: 'OK' });
    });

    it("answers another user's token like a missing device", async () => {
      const r = await call(t.app, 'POST', '/api/read/devices/details', { token: tokenOf(bob, M2) }, alice);
      const forged = await call(
        t.app,
        'POST',
        '/api/read/devices/details',
        { token: 'MDItNEQtNTAtMDAtMDAtMDk.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA|32535215940' },
        alice,
      );
      expect(r.statusCode).toBe(404);
      expect(forged.statusCode).toBe(404);
      expect(r.json()).toEqual(forged.json());
    });
  });

  describe('assignment', () => {
    it('stops a device at once when its assignment expires', async () => {
      const d2 = (await t.services.repos.devices.findByMac(M2))!.id;
      await assign(t.services, aliceId, d2, false, 60);
      const c = await signIn(t.app, 'alice', 'alice-secret');
      const token = tokenOf(c, M2);
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, c)).statusCode).toBe(200);
      t.clock.advance(60 * 1000);
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, c)).statusCode).toBe(404);
      const list = await call(t.app, 'POST', '/api/read/auth/local', { token: c.token }, c);
      expect(list.json().data.map((d: { mac: string }) => d.mac)).toEqual([M1]);
      // A renewed assignment gets a new token; the old one stays dead.
      await assign(t.services, aliceId, d2, false, 3600);
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, c)).statusCode).toBe(404);
    });

    it("removes the user's own assignment, and only with the user's own login", async () => {
      const c = await signIn(t.app, 'alice', 'alice-secret');
      const token = tokenOf(c, M1);
      const wrong = await call(t.app, 'DELETE', '/api/write/assign', { token, login: 'bob' }, c);
      expect(wrong.statusCode).toBe(404);
      const ok = await call(t.app, 'DELETE', '/api/write/assign', { token, login: 'alice' }, c);
      expect(ok.json()).toEqual({ status: 'OK' });
      expect((await call(t.app, 'POST', '/api/read/devices/details', { token }, c)).statusCode).toBe(404);
      // The saved tree no longer shows the device.
      const h = await call(t.app, 'POST', '/api/read/facility/devices-hierarchy', { token: c.token }, c);
      expect(JSON.stringify(h.json().data)).not.toContain(M1);
      await assign(t.services, aliceId, (await t.services.repos.devices.findByMac(M1))!.id, true);
    });
  });
});
