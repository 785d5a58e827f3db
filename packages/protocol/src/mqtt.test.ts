import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CommandReply,
  LiveFrame,
  MQTT_MAX_PAYLOAD_BYTES,
  TOPIC_MAX_BYTES,
  REGISTER_KINDS,
  LIVE_PHASE_QUANTITIES,
  decodeDeviceMessage,
  deviceTopic,
  encodePayload,
  parseDeviceTopic,
  type LiveFrame as LiveFrameT,
} from './index';

const MAC = 'AB-01-02-03-04-05-06';
const enc = (s: string) => new TextEncoder().encode(s);

function sampleFrame(): LiveFrameT {
  const phases = (l1: number, l2: number, l3: number) => ({ L1: l1, L2: l2, L3: l3 });
  const f = { ts: 1_763_000_000, F: 50.01 } as Record<string, unknown>;
  for (const q of LIVE_PHASE_QUANTITIES) f[q] = phases(1, 2, 3);
  for (const r of REGISTER_KINDS) f[r] = phases(10, 20, 30);
  return LiveFrame.parse(f);
}

describe('device topics', () => {
  it('round-trips every kind through parseDeviceTopic', () => {
    for (const kind of ['live', 'state', 'event', 'accutest/data', 'accutest/state', 'upgrade', 'cmd/req', 'cmd/res'] as const) {
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
    expect(decodeDeviceMessage(deviceTopic(MAC, 'cmd/res'), big)).toMatchObject({ ok: false, reason: 'oversized' });
    // A live frame padded past its own limit is refused before JSON parsing.
    const padded = new Uint8Array(TOPIC_MAX_BYTES.live + 1).fill(0x20);
    padded.set(enc(encodePayload(sampleFrame())));
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), padded)).toMatchObject({ ok: false, reason: 'oversized' });
    expect(decodeDeviceMessage(deviceTopic(MAC, 'live'), padded.slice(0, TOPIC_MAX_BYTES.live)).ok).toBe(true);
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
    const kinds = ['live', 'state', 'event', 'accutest/data', 'accutest/state', 'upgrade', 'cmd/req', 'cmd/res'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.jsonValue(), (kind, value) => {
        const r = decodeDeviceMessage(deviceTopic(MAC, kind), enc(JSON.stringify(value)));
        if (r.ok) expect(r.message.mac).toBe(MAC);
        else expect(['json', 'schema']).toContain(r.reason);
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
          const r = decodeDeviceMessage(deviceTopic(MAC, 'live'), enc(JSON.stringify({ ...base, [key]: bad })));
          expect(r.ok).toBe(false);
        },
      ),
    );
  });
});

describe('CommandReply', () => {
  it('accepts an error reply and refuses a result of the wrong command', () => {
    expect(CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: false, error: 'BUSY' }).success).toBe(true);
    expect(CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: true, result: { count: 1 } }).success).toBe(false);
    expect(CommandReply.safeParse({ id: 'a', cmd: 'RELAY', ok: true, result: { state: 'OPEN' } }).success).toBe(true);
  });
});
