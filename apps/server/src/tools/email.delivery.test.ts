import { unixMs } from '@meterportal/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  addDevice,
  addUser,
  assign,
  call,
  createTestApp,
  quickSession,
  type Client,
  type TestApp,
} from '../test/harness';
import { prepareSmtpServer, type TestSmtpServer } from '../test/smtpServer';
import { emailChannel } from './email';
import { notificationDelivery, retryDelayMs } from './notificationDelivery';

const HOUSE = '02-4D-50-00-00-01';
/** 15 January 2026, 11:05:30 UTC: 12:05:30 in Bratislava. */
const AT_MS = unixMs(Date.UTC(2026, 0, 15, 11, 5, 30));

describe.each(DIALECTS)('e-mail notifications on $name', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let alice: Client;
  let houseId: number;
  const house = () => alice.devices.find((d) => d.mac === HOUSE)!.token;
  const addEmailPair = (notifyTypeID: number, email: string, language: string) =>
    call(
      t.app,
      'POST',
      '/api/write/tools/notifications/pair',
      { user_token: alice.token, device_token: house(), notifyTypeID, notifyDestID: 3, email, language },
      alice,
    );
  const worker = () =>
    notificationDelivery({
      repo: t.services.repos.notifications,
      channels: [emailChannel(t.services.mailer, t.config.TZ)],
      clock: t.clock,
    });

  beforeAll(async () => {
    smtp = await prepareSmtpServer();
    t = await createTestApp(dialect, {
      env: { SMTP_URL: smtp.url, SMTP_FROM: 'Meter portal <portal@example.test>', TZ: 'Europe/Bratislava' },
    });
    const aliceId = await addUser(t.services, 'alice', 'alice-secret');
    houseId = await addDevice(t.services, HOUSE, 1, 'House');
    await assign(t.services, aliceId, houseId, true);
    alice = await quickSession(t.services, aliceId);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('offers e-mail as a destination and keeps the address on the pair', async () => {
    const available = await call(
      t.app,
      'POST',
      '/api/read/tools/notifications/email',
      { user_token: alice.token },
      alice,
    );
    expect(available.json()).toEqual({ status: 'OK', data: { available: true } });
    const r = await addEmailPair(2, 'jana@example.test', 'sk');
    expect(r.json()).toEqual({ status: 'OK', data: { ID_notify: expect.any(Number) } });
    expect((await addEmailPair(2, 'JANA@example.test', 'de')).json().code).toBe(608);
    expect((await addEmailPair(2, 'not an address', 'sk')).statusCode).toBe(400);
    const noLanguage = await call(
      t.app,
      'POST',
      '/api/write/tools/notifications/pair',
      { user_token: alice.token, device_token: house(), notifyTypeID: 1, notifyDestID: 3, email: 'a@b.test' },
      alice,
    );
    expect(noLanguage.statusCode).toBe(400);
    const list = await call(
      t.app,
      'POST',
      '/api/read/tools/notifications/pair',
      { user_token: alice.token, device_token: house() },
      alice,
    );
    expect(list.json().data).toEqual([
      {
        ID: r.json().data.ID_notify,
        ID_notifyType: 2,
        ID_notifyDestType: 3,
        webex_space: null,
        email: 'jana@example.test',
      },
    ]);
  });

  it('delivers after the SMTP server comes up, each message once, in the language of its pair', async () => {
    const w = worker();
    await t.services.notifications.record(houseId, HOUSE, 'NILM', {
      timestamp: AT_MS,
      event: 'ON',
      name: 'Kettle',
      phase: 'L2',
    });
    // The server is down: the attempt fails and the delivery waits for its retry.
    expect(await w.tick()).toEqual({ sent: 0, failed: 1 });
    expect(await w.tick()).toEqual({ sent: 0, failed: 0 });
    await t.services.notifications.record(houseId, HOUSE, 'NILM', {
      timestamp: unixMs(AT_MS + 60_000),
      event: 'OFF',
      name: 'Kettle',
      phase: 'L2',
    });
    expect(await w.tick()).toEqual({ sent: 0, failed: 1 });
    expect(smtp.messages).toEqual([]);

    await smtp.start();
    t.clock.advance(retryDelayMs(1));
    expect(await w.tick()).toEqual({ sent: 2, failed: 0 });
    t.clock.advance(retryDelayMs(5));
    expect(await w.tick()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(2);
    const on = smtp.messages.find((m) => m.subject.includes('zapnutý'))!;
    expect(on).toEqual({
      from: '"Meter portal" <portal@example.test>',
      to: 'jana@example.test',
      subject: 'House: Spotrebič · Kettle zapnutý · fáza L2',
      text: expect.stringContaining(`Zariadenie: House (${HOUSE})`),
      attachments: [],
    });
    expect(on.text).toContain('Udalosť: Spotrebič · Kettle zapnutý · fáza L2');
    expect(on.text).toMatch(/Čas: 15\. ?1\. ?2026,? 12:05:30 \(Europe\/Bratislava\)/);
    expect(smtp.messages.map((m) => m.subject)).toContain('House: Spotrebič · Kettle vypnutý · fáza L2');
    const rows = await t.services.database.db
      .selectFrom('notification_deliveries')
      .select(['state', 'attempts'])
      .execute();
    expect(rows).toEqual([
      { state: 'sent', attempts: 1 },
      { state: 'sent', attempts: 1 },
    ]);
  });

  it('writes English and German messages for pairs made in those languages', async () => {
    smtp.messages.length = 0;
    expect((await addEmailPair(1, 'ops@example.test', 'en')).statusCode).toBe(200);
    expect((await addEmailPair(1, 'betrieb@example.test', 'de')).statusCode).toBe(200);
    await t.services.notifications.record(houseId, HOUSE, 'STATUS', { timestamp: AT_MS, event: 'OFFLINE' });
    expect(await worker().tick()).toEqual({ sent: 2, failed: 0 });
    const to = (a: string) => smtp.messages.find((m) => m.to === a)!;
    expect(to('ops@example.test').subject).toBe('House: Status · Device is offline');
    expect(to('ops@example.test').text).toContain(`Device: House (${HOUSE})`);
    expect(to('ops@example.test').text).toMatch(/Time: 15 Jan 2026,? 12:05:30 \(Europe\/Bratislava\)/);
    expect(to('betrieb@example.test').subject).toBe('House: Status · Gerät ist offline');
    expect(to('betrieb@example.test').text).toContain(`Gerät: House (${HOUSE})`);
    expect(to('betrieb@example.test').text).toMatch(/Zeit: 15\.01\.2026,? 12:05:30 \(Europe\/Bratislava\)/);
  });

  it('neither offers nor accepts e-mail when SMTP_URL is unset', async () => {
    const bare = await createTestApp(dialect);
    const id = await addUser(bare.services, 'bob', 'bob-secret');
    const dev = await addDevice(bare.services, HOUSE, 1, 'House');
    await assign(bare.services, id, dev, true);
    const bob = await quickSession(bare.services, id);
    const available = await call(
      bare.app,
      'POST',
      '/api/read/tools/notifications/email',
      { user_token: bob.token },
      bob,
    );
    expect(available.json()).toEqual({ status: 'OK', data: { available: false } });
    const add = await call(
      bare.app,
      'POST',
      '/api/write/tools/notifications/pair',
      {
        user_token: bob.token,
        device_token: bob.devices[0]!.token,
        notifyTypeID: 1,
        notifyDestID: 3,
        email: 'bob@example.test',
        language: 'en',
      },
      bob,
    );
    expect(add.json().code).toBe(610);
    await bare.close();
  });
});
