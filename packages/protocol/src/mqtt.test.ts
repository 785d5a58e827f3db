import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import type { NotificationData } from './index';
import {
  CommandReply,
  LiveFrame,
  MQTT_MAX_PAYLOAD_BYTES,
  TOPIC_MAX_BYTES,
  REGISTER_KINDS,
  LIVE_PHASE_QUANTITIES,
  LIVE_QUANTITY_OF,
  QUANTITY_BOUNDS,
  DEVICE_TEXT_MAX_CHARS,
  decodeDeviceMessage,
  deviceTopic,
  encodePayload,
  parseDeviceTopic,
  type LiveFrame as LiveFrameT,
  EventMessage,
  secToMs,
} from './index';

const MAC = 'AB-01-02-03-04-05-06';
const enc = (s: string) => new TextEncoder().encode(s);

function sampleFrame(): LiveFrameT {
  const phases = (l1: number, l2: number, l3: number) => ({ L1: l1, L2: l2, L3: l3 });
  const f = { ts: 1_763_000_000, F: 50.01 } as Record<string, unknown>;
  for (const q of LIVE_PHASE_QUANTITIES) f[q] = q === 'PF' ? phases(0.9, 0.8, -0.7) : phases(1, 2, 3);
  for (const r of REGISTER_KINDS) f[r] = phases(10, 20, 30);
  return LiveFrame.parse(f);
}

describe('device topics', () => {
  it('round-trips every kind through parseDeviceTopic', () => {
    for (const kind of [
      'live',
      'state',
      'event',
      'accutest/data',
      'accutest/state',
      'upgrade',
      'cmd/req',
      'cmd/res',
    ] as const) {
      expect(parseDeviceTopic(deviceTopic(MAC, kind))).toEqual({ mac: MAC, kind });
    }
  });

  it.each([
    'meters/+/live',
    'meters/#',
    'meters/AB-01-02-03-04-05-06/other',
    'meters//live',
    'other/AB-01-02-03-04-05-06/live',
    'meters/AB-01-02-03-04-05-06/live/extra',
    'meters/not-a-mac/live',
  ])('refuses %s', (topic) => {
    expect(parseDeviceTopic(topic)).toBeNull();
  });
});

describe('decodeDeviceMessage', () => {
  it('accepts a complete live frame', () => {
    const r = decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(encodePayload(sampleFrame())));
    expect(r.ok).toBe(true);
    if (r.ok && r.message.kind === 'live') expect(r.message.payload.E_I.L3).toBe(30);
  });

  it.each([
    ['topic', 'meters/x/live', '{}'],
    ['json', deviceTopic(MAC, 'live'), '{"ts":'],
    ['schema', deviceTopic(MAC, 'live'), '{"ts":1763000000}'],
    ['schema', deviceTopic(MAC, 'state'), '{"status":"SLEEPING"}'],
  ] as const)('rejects with reason %s', (reason, topic, text) => {
    const r = decodeDeviceMessage(topic, enc(text));
    expect(r).toMatchObject({ ok: false, reason });
  });

  it('rejects invalid UTF-8 and oversized payloads', () => {
    expect(decodeDeviceMessage(deviceTopic(MAC, 'state'), new Uint8Array([0xff, 0xfe]))).toMatchObject({
      ok: false,
      reason: 'encoding',
    });
    const big = new Uint8Array(MQTT_MAX_PAYLOAD_BYTES + 1).fill(0x20);
    expect(decodeDeviceMessage(deviceTopic(MAC, 'cmd/res'), big)).toMatchObject({
      ok: false,
      reason: 'oversized',
    });
    // A live frame padded past its own limit is refused before JSON parsing.
    const padded = new Uint8Array(TOPIC_MAX_BYTES.live + 1).fill(0x20);
    padded.set(enc(encodePayload(sampleFrame())));
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), padded)).toMatchObject({
      ok: false,
      reason: 'oversized',
    });
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), padded.slice(0, TOPIC_MAX_BYTES.live)).ok).toBe(
      true,
    );
  });

  it('rejects a negative or fractional register', () => {
    const f = sampleFrame() as unknown as { E_I: { L1: number } };
    f.E_I.L1 = -1;
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(JSON.stringify(f))).ok).toBe(false);
    f.E_I.L1 = 1.5;
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(JSON.stringify(f))).ok).toBe(false);
  });

  it('never throws on arbitrary bytes for any topic', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 2048 }), (topic, bytes) => {
        const r = decodeDeviceMessage(topic, bytes);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on arbitrary JSON on every device topic', () => {
    const kinds = [
      'live',
      'state',
      'event',
      'accutest/data',
      'accutest/state',
      'upgrade',
      'cmd/req',
      'cmd/res',
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.jsonValue(), (kind, value) => {
        const r = decodeDeviceMessage(deviceTopic(MAC, kind), enc(JSON.stringify(value)));
        if (r.ok) expect(r.message.mac).toBe(MAC);
        else
          expect(['json', 'schema', 'out_of_range', 'nul_char', 'lone_surrogate', 'text_too_long']).toContain(
            r.reason,
          );
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects every single-field corruption of a live frame', () => {
    const base = sampleFrame() as unknown as Record<string, unknown>;
    const keys = Object.keys(base);
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.oneof(fc.string(), fc.constant(null), fc.constant(Number.NaN), fc.boolean()),
        (key, bad) => {
          // A frequency of null (NaN is written as null) says the device does not measure it.
          fc.pre(!(key === 'F' && (bad === null || Number.isNaN(bad))));
          const r = decodeDeviceMessage(
            deviceTopic(MAC, 'live'),
            enc(JSON.stringify({ ...base, [key]: bad })),
          );
          expect(r.ok).toBe(false);
        },
      ),
    );
  });

  it('takes null for a quantity or phase the device does not measure, but not for a register', () => {
    const base = sampleFrame();
    const absent = { ...base, F: null, PF: { L1: 0.9, L2: null, L3: null } };
    const r = decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(JSON.stringify(absent)));
    expect(r.ok && r.message.kind === 'live' && r.message.payload).toMatchObject({
      F: null,
      PF: { L1: 0.9, L2: null, L3: null },
    });
    const register = { ...base, E_I: { ...base.E_I, L2: null } };
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(JSON.stringify(register))).ok).toBe(false);
  });
});

describe('texts a database refuses', () => {
  const NUL = 'a\u0000b';
  const HIGH = 'a\ud800b';
  const LOW = 'a\udc00';
  // Every text field a device sends, as a message with that field set to `bad`.
  const TEXT_FIELDS: [string, string, (bad: string) => unknown][] = [
    ['state fw', 'state', (bad) => ({ status: 'ONLINE', fw: bad })],
    ['state connection', 'state', (bad) => ({ status: 'ONLINE', connection: bad })],
    ['state device', 'state', (bad) => ({ status: 'ONLINE', device: bad })],
    ['event STATUS event', 'event', (bad) => ({ type: 'STATUS', data: { timestamp: 1, event: bad } })],
    [
      'event ANOMALY message',
      'event',
      (bad) => ({ type: 'ANOMALY', data: { timestamp: 1, event: 'X', message: bad } }),
    ],
    [
      'event NILM name',
      'event',
      (bad) => ({
        type: 'NILM',
        data: {
          timestamp: 1,
          event: 'ON',
          name: bad,
          phase: 'L1',
          prediction_rate: 90,
          runtime: 0,
          energy_consumption_wh: 0,
        },
      }),
    ],
    ['upgrade id', 'upgrade', (bad) => ({ id: bad, state: 'STARTING', progress: 0, fw: '1.0' })],
    ['upgrade fw', 'upgrade', (bad) => ({ id: 'c1', state: 'STARTING', progress: 0, fw: bad })],
    ['accutest/state IDN', 'accutest/state', (bad) => ({ state: 'RUNNING', IDN: bad, progress: 1, ts: 1 })],
    ['accutest/data IDN', 'accutest/data', (bad) => ({ IDN: bad, MTIME: 1, ERROR: 0.1 })],
    ['accutest/data extra field', 'accutest/data', (bad) => ({ IDN: 'm1', MTIME: 1, ERROR: 0.1, NOTE: bad })],
    ['accutest/data extra key', 'accutest/data', (bad) => ({ IDN: 'm1', MTIME: 1, ERROR: 0.1, [bad]: 1 })],
    [
      'cmd/res meter record',
      'cmd/res',
      (bad) => ({
        id: 'c1',
        cmd: 'METERS_UPLOAD',
        ok: true,
        result: { meters: [{ IDN: 'm1', CUSTOMER: bad }] },
      }),
    ],
    [
      'cmd/res meter IDN',
      'cmd/res',
      (bad) => ({ id: 'c1', cmd: 'METERS_UPLOAD', ok: true, result: { meters: [{ IDN: bad }] } }),
    ],
    ['cmd/res id', 'cmd/res', (bad) => ({ id: bad, cmd: 'RELAY', ok: true, result: { state: 'OPEN' } })],
  ];

  it.each(TEXT_FIELDS)('accepts a clean %s', (_name, kind, make) => {
    const r = decodeDeviceMessage(deviceTopic(MAC, kind as 'state'), enc(JSON.stringify(make('ok-1'))));
    expect(r.ok).toBe(true);
  });

  it.each(
    TEXT_FIELDS.flatMap(
      ([name, kind, make]) =>
        [
          [name, 'nul_char', kind, make(NUL)],
          [name, 'lone_surrogate', kind, make(HIGH)],
          [name, 'lone_surrogate', kind, make(LOW)],
        ] as const,
    ),
  )('refuses %s with %s', (_name, reason, kind, payload) => {
    const r = decodeDeviceMessage(deviceTopic(MAC, kind as 'state'), enc(JSON.stringify(payload)));
    expect(r).toMatchObject({ ok: false, reason });
  });

  it('keeps a well-formed pair of surrogates (an emoji)', () => {
    const r = decodeDeviceMessage(
      deviceTopic(MAC, 'state'),
      enc(JSON.stringify({ status: 'ONLINE', device: 'meter \ud83d\udd0c' })),
    );
    expect(r.ok).toBe(true);
  });

  it('refuses an over-long text where the schema itself has no limit', () => {
    const long = 'x'.repeat(DEVICE_TEXT_MAX_CHARS + 1);
    const r = decodeDeviceMessage(
      deviceTopic(MAC, 'accutest/data'),
      enc(JSON.stringify({ IDN: 'm1', MTIME: 1, ERROR: 0, NOTE: long })),
    );
    expect(r).toMatchObject({ ok: false, reason: 'text_too_long', detail: 'NOTE' });
    const fine = decodeDeviceMessage(
      deviceTopic(MAC, 'accutest/data'),
      enc(JSON.stringify({ IDN: 'm1', MTIME: 1, ERROR: 0, NOTE: long.slice(1) })),
    );
    expect(fine.ok).toBe(true);
  });
});

describe('plausible values', () => {
  const withValue = (key: string, value: number | string) => {
    const f = sampleFrame() as unknown as Record<string, unknown>;
    const text = JSON.stringify(f);
    // Written into the JSON text, so numbers JSON cannot hold as finite (1e400) reach the decoder.
    return key === 'F'
      ? text.replace(/"F":[^,}]+/, `"F":${value}`)
      : text.replace(new RegExp(`"${key}":\\{"L1":[^,}]+`), `"${key}":{"L1":${value}`);
  };

  it.each([
    ['U', '1e308'],
    ['U', '-1e308'],
    ['U', '-1'],
    ['U', '1e400'],
    ['U', '-1e400'],
    ['I', '1e308'],
    ['P', '1e308'],
    ['P', '-1e308'],
    ['Q', '-1e308'],
    ['S', '-5'],
    ['PF', '1.5'],
    ['PF', '-1.01'],
    ['DF_U', '1e308'],
    ['F_U', '720'],
    ['F_I', '-1e308'],
    ['U_PP', '1e308'],
    ['F', '1e308'],
    ['F', '-50'],
    ['E_I', '1e308'],
    ['E_I', '18446744073709551616'],
    ['Q_E', '9007199254740993'],
  ])('refuses %s = %s as out of range', (key, value) => {
    const r = decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(withValue(key, value)));
    expect(r).toMatchObject({ ok: false, reason: 'out_of_range' });
  });

  it.each([
    ['U', '253.4'],
    ['U', '0'],
    ['I', '3000'],
    ['P', '-150000'],
    ['PF', '-1'],
    ['F_U', '-120'],
    ['E_I', '9007199254740991'],
  ])('accepts %s = %s', (key, value) => {
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(withValue(key, value))).ok).toBe(true);
  });

  it('bounds every instantaneous quantity of a live frame', () => {
    for (const q of LIVE_PHASE_QUANTITIES) {
      const { max } = QUANTITY_BOUNDS[LIVE_QUANTITY_OF[q]];
      expect(
        decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(withValue(q, String(max * 10 || 10)))),
        q,
      ).toMatchObject({ reason: 'out_of_range' });
    }
  });

  it('refuses huge NILM energies and infinite event numbers', () => {
    const nilm = (energy: string) =>
      `{"type":"NILM","data":{"timestamp":1,"event":"OFF","name":"kettle","phase":"L1","prediction_rate":90,"runtime":60,"energy_consumption_wh":${energy}}}`;
    expect(decodeDeviceMessage(deviceTopic(MAC, 'event'), enc(nilm('12.5'))).ok).toBe(true);
    expect(decodeDeviceMessage(deviceTopic(MAC, 'event'), enc(nilm('1e308')))).toMatchObject({
      reason: 'out_of_range',
    });
    expect(decodeDeviceMessage(deviceTopic(MAC, 'event'), enc(nilm('1e400')))).toMatchObject({
      reason: 'out_of_range',
    });
  });
});

describe('CommandReply', () => {
  it('accepts an error reply and refuses a result of the wrong command', () => {
    expect(CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: false, error: 'BUSY' }).success).toBe(true);
    expect(CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: true, result: { count: 1 } }).success).toBe(
      false,
    );
    expect(
      CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: true, result: { state: 'OPEN' } }).success,
    ).toBe(true);
  });
});

describe('event times', () => {
  it("keeps a device event's seconds apart from a notification's milliseconds in the types", () => {
    const event = EventMessage.parse({ type: 'STATUS', data: { timestamp: 1_763_000_000, event: 'BOOT' } });
    // @ts-expect-error a device's unix seconds are not a notification's unix milliseconds
    const mixed: z.output<typeof NotificationData> = { timestamp: event.data.timestamp };
    const converted: z.output<typeof NotificationData> = { timestamp: secToMs(event.data.timestamp) };
    expect(mixed.timestamp).toBe(1_763_000_000);
    expect(new Date(converted.timestamp).toISOString()).toBe('2025-11-13T02:13:20.000Z');
  });
});
