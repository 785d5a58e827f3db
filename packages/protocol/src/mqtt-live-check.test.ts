import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodePayload } from './mqtt-decode';
import { exactLiveFrame } from './mqtt-live-check';
import {
  LIVE_PHASE_QUANTITIES,
  LiveFrame,
  QUANTITY_BOUNDS,
  LIVE_QUANTITY_OF,
  REGISTER_KINDS,
} from './mqtt-messages';

const PHASES = ['L1', 'L2', 'L3'] as const;

/** Numbers near and beyond every bound, and of every kind JSON can carry. */
const edgy = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1, -1, 100, 100.0001, 1e6, 1e6 + 1, -1e12, 1e12, 1e12 + 1, -360.5, 360, 1000.1),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 0.5, -0.5, 946684799, 4102444801),
);
const anyJson = fc.oneof(edgy, fc.constant(null), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant([]));

/** A frame the schema passes, from values inside every bound. */
const validFrame = fc
  .record({
    ts: fc.integer({ min: 946684800, max: 4102444800 }),
    F: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 100, noNaN: true })),
    values: fc.array(fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })), {
      minLength: LIVE_PHASE_QUANTITIES.length * 3,
      maxLength: LIVE_PHASE_QUANTITIES.length * 3,
    }),
    registers: fc.array(fc.nat({ max: Number.MAX_SAFE_INTEGER }), {
      minLength: REGISTER_KINDS.length * 3,
      maxLength: REGISTER_KINDS.length * 3,
    }),
  })
  .map(({ ts, F, values, registers }) => {
    const frame: Record<string, unknown> = { ts };
    LIVE_PHASE_QUANTITIES.forEach((q, i) => {
      const { min, max } = QUANTITY_BOUNDS[LIVE_QUANTITY_OF[q]];
      frame[q] = Object.fromEntries(
        PHASES.map((p, k) => {
          const share = values[i * 3 + k]!;
          return [p, share === null ? null : min + share * (max - min)];
        }),
      );
    });
    frame.F = F;
    REGISTER_KINDS.forEach((r, i) => {
      frame[r] = Object.fromEntries(PHASES.map((p, k) => [p, registers[i * 3 + k]!]));
    });
    return frame;
  });

const keys = ['ts', 'F', ...LIVE_PHASE_QUANTITIES, ...REGISTER_KINDS];

/** A valid frame changed in one place: a value, a phase, a key added or taken away. */
const mutated = fc
  .tuple(validFrame, fc.constantFrom(...keys), fc.nat(5), anyJson)
  .map(([frame, key, how, value]) => {
    const f = structuredClone(frame);
    const inner = f[key] as Record<string, unknown> | null;
    const phase = PHASES[how % 3]!;
    if (how === 3) delete f[key];
    else if (how === 4) f[`${key}x`] = value;
    else if (how === 5 || inner === null || typeof inner !== 'object') f[key] = value;
    else if (value === '') delete inner[phase];
    else if (typeof value === 'boolean') inner.L4 = 1;
    else inner[phase] = value;
    return f;
  });

describe('the one-pass live frame check', () => {
  it('passes a frame only as the schema passes it, and then the schema gives the same frame', () => {
    fc.assert(
      fc.property(fc.oneof(validFrame, mutated), (json) => {
        const fast = exactLiveFrame(json);
        const schema = LiveFrame.safeParse(json);
        if (fast) {
          expect(schema.success).toBe(true);
          expect(fast).toStrictEqual(schema.data);
        }
        if (!schema.success) expect(fast).toBeNull();
      }),
      { numRuns: 5000 },
    );
  });

  it('passes every frame the schema passes unchanged, so the common frame never meets the schema', () => {
    fc.assert(
      fc.property(validFrame, (json) => {
        expect(LiveFrame.safeParse(json).success).toBe(true);
        expect(exactLiveFrame(json)).toBe(json);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves keys to strip and every fault to the schema, whose answer decodePayload gives', () => {
    const frame = fc.sample(validFrame, { numRuns: 1, seed: 7 })[0]!;
    const extra = { ...frame, note: 'x', U: { ...(frame.U as object), N: 1 } };
    expect(exactLiveFrame(extra)).toBeNull();
    const stripped = decodePayload('live', Buffer.from(JSON.stringify(extra)));
    expect(stripped).toEqual({ ok: true, payload: LiveFrame.parse(frame) });
    expect(stripped.ok && 'note' in stripped.payload).toBe(false);

    const far = { ...frame, U: { L1: 1e308, L2: null, L3: null } };
    expect(exactLiveFrame(far)).toBeNull();
    expect(decodePayload('live', Buffer.from(JSON.stringify(far)))).toMatchObject({
      ok: false,
      reason: 'out_of_range',
      detail: 'U.L1: at most 1000000',
    });
    for (const bad of [
      null,
      [],
      'frame',
      { ...frame, ts: 4102444801 },
      { ...frame, E_I: { L1: 1.5, L2: 0, L3: 0 } },
    ])
      expect(exactLiveFrame(bad)).toBeNull();
  });
});
