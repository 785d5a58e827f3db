import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LiveFrame } from '@meterportal/protocol';
import { readingToFrame } from './reading';
import { decodeShelly, mergeShelly, shellyReading, type ShellyComponents } from './shelly';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'shelly');
const raw = (file: string) => fs.readFileSync(path.join(DIR, file));
const json = (file: string) => JSON.parse(raw(file).toString('utf8')) as Record<string, number>;

/** Components of the status messages of the files, as the device publishes them. */
function components(files: Record<string, string>): ShellyComponents {
  let c: ShellyComponents = {};
  for (const [name, file] of Object.entries(files)) {
    const r = decodeShelly(`status/${name}`, raw(file));
    expect(r.ok && r.kind, JSON.stringify(r)).toBe('components');
    if (r.ok && r.kind === 'components') c = mergeShelly(c, r.components);
  }
  return c;
}

describe('Shelly Pro 3EM, three-phase profile', () => {
  it.each(['1.4.3', '1.6.2', '1.7.5'])('firmware %s: every phase as the device sent it', (fw) => {
    const em = json(`pro3em_triphase_fw${fw}_em0.json`);
    const data = json(`pro3em_triphase_fw${fw}_emdata0.json`);
    const reading = shellyReading(
      components({
        'em:0': `pro3em_triphase_fw${fw}_em0.json`,
        'emdata:0': `pro3em_triphase_fw${fw}_emdata0.json`,
      }),
    );
    const per = (field: string) => ({ L1: em[`a_${field}`], L2: em[`b_${field}`], L3: em[`c_${field}`] });
    expect(reading).toEqual({
      U: per('voltage'),
      I: per('current'),
      P: per('act_power'),
      S: per('aprt_power'),
      PF: per('pf'),
      F: 50,
      E_I: {
        phasesWh: { L1: data.a_total_act_energy, L2: data.b_total_act_energy, L3: data.c_total_act_energy },
      },
      E_E: {
        phasesWh: {
          L1: data.a_total_act_ret_energy,
          L2: data.b_total_act_ret_energy,
          L3: data.c_total_act_ret_energy,
        },
      },
    });
    // Reactive power is not among the Pro 3EM's status: absent, not zero.
    expect(reading).not.toHaveProperty('Q');
  });

  it("counts energy from the phases' registers, not the total that firmware 1.4.3 rounds apart", () => {
    const reading = shellyReading(
      components({
        'em:0': 'pro3em_triphase_fw1.4.3_em0.json',
        'emdata:0': 'pro3em_triphase_fw1.4.3_emdata0.json',
      }),
    )!;
    const frame = readingToFrame(reading, 1_763_000_000);
    // 0.01 Wh on each phase: the device's total says 0.02.
    expect(json('pro3em_triphase_fw1.4.3_emdata0.json').total_act).toBe(0.02);
    expect(frame.E_I).toEqual({ L1: 0, L2: 0, L3: 0 });
    const big = readingToFrame(
      shellyReading(
        components({
          'em:0': 'pro3em_triphase_fw1.7.5_em0.json',
          'emdata:0': 'pro3em_triphase_fw1.7.5_emdata0.json',
        }),
      )!,
      1_763_000_000,
    );
    expect(big.E_I).toEqual({ L1: 0, L2: 0, L3: 45236 });
  });

  it('makes no reading before the first registers came', () => {
    expect(shellyReading(components({ 'em:0': 'pro3em_triphase_fw1.7.5_em0.json' }))).toBeNull();
  });
});

describe('Shelly single-phase channels (Pro 3EM monophase, Pro EM-50)', () => {
  it.each(['1.4.3', '1.7.5'])('Pro 3EM monophase firmware %s: channel 2 on L3', (fw) => {
    const em = json(`pro3em_monophase_fw${fw}_em1_2.json`);
    const data = json(`pro3em_monophase_fw${fw}_em1data_2.json`);
    const reading = shellyReading(
      components({
        'em1:2': `pro3em_monophase_fw${fw}_em1_2.json`,
        'em1data:2': `pro3em_monophase_fw${fw}_em1data_2.json`,
      }),
    );
    expect(reading).toEqual({
      U: { L3: em.voltage },
      I: { L3: em.current },
      P: { L3: em.act_power },
      S: { L3: em.aprt_power },
      PF: { L3: em.pf },
      F: em.freq,
      E_I: { phasesWh: { L3: data.total_act_energy } },
      E_E: { phasesWh: { L3: data.total_act_ret_energy } },
    });
  });

  it('Pro 3EM monophase 1.7.5: all three channels', () => {
    const files = Object.fromEntries(
      [0, 1, 2].flatMap((n) => [
        [`em1:${n}`, `pro3em_monophase_fw1.7.5_em1_${n}.json`],
        [`em1data:${n}`, `pro3em_monophase_fw1.7.5_em1data_${n}.json`],
      ]),
    );
    const r = shellyReading(components(files))!;
    expect(r.I).toEqual({ L1: 0.028, L2: 0.027, L3: 0.068 });
    expect(r.E_I).toEqual({ phasesWh: { L1: 0.01, L2: 0.01, L3: 0.15 } });
  });

  it.each(['1.4.0', '1.7.5'])('Pro EM-50 firmware %s', (fw) => {
    const em = json(`proem50_fw${fw}_em1_0.json`);
    const data = json(`proem50_fw${fw}_em1data_0.json`);
    const r = shellyReading(
      components({ 'em1:0': `proem50_fw${fw}_em1_0.json`, 'em1data:0': `proem50_fw${fw}_em1data_0.json` }),
    )!;
    expect(r).toMatchObject({ U: { L1: em.voltage }, P: { L1: em.act_power }, F: 50 });
    expect(readingToFrame(r, 1_763_000_000).E_I.L1).toBe(Math.floor(data.total_act_energy!));
  });

  it.each(['1.4.0', '1.7.5'])('Pro EM-50 firmware %s: a live frame without the phases it lacks', (fw) => {
    const em = json(`proem50_fw${fw}_em1_0.json`);
    const r = shellyReading(
      components({ 'em1:0': `proem50_fw${fw}_em1_0.json`, 'em1data:0': `proem50_fw${fw}_em1data_0.json` }),
    )!;
    const frame = LiveFrame.parse(readingToFrame(r, 1_763_000_000));
    expect(frame.U).toEqual({ L1: em.voltage, L2: null, L3: null });
    expect(frame.P).toEqual({ L1: em.act_power, L2: null, L3: null });
    expect(frame.PF).toEqual({ L1: em.pf, L2: null, L3: null });
    // No reactive power, distortion or angles in a Shelly's status: absent, not zero.
    expect(frame.Q).toEqual({ L1: null, L2: null, L3: null });
    expect(frame.DF_U).toEqual({ L1: null, L2: null, L3: null });
    expect(frame.F).toBe(50);
  });
});

describe('Shelly RPC notifications and online state', () => {
  const em = json('pro3em_triphase_fw1.7.5_em0.json');
  const data = json('pro3em_triphase_fw1.7.5_emdata0.json');

  it('takes NotifyFullStatus whole and NotifyStatus as changes of single fields', () => {
    const full = decodeShelly(
      'events/rpc',
      Buffer.from(
        JSON.stringify({
          src: 'shellypro3em-abc',
          dst: 'shellypro3em-abc/events',
          method: 'NotifyFullStatus',
          params: { ts: 1763000000.52, 'em:0': em, 'emdata:0': data, sys: { uptime: 5 } },
        }),
      ),
    );
    expect(full).toMatchObject({ ok: true, kind: 'components', tsSec: 1763000000 });
    if (!full.ok || full.kind !== 'components') return;
    const change = decodeShelly(
      'events/rpc',
      Buffer.from(
        JSON.stringify({
          method: 'NotifyStatus',
          params: { ts: 1763000001.1, 'em:0': { id: 0, c_act_power: 120.5 } },
        }),
      ),
    );
    expect(change).toMatchObject({ ok: true, kind: 'components', tsSec: 1763000001 });
    if (!change.ok || change.kind !== 'components') return;
    const r = shellyReading(mergeShelly(full.components, change.components))!;
    expect(r.P).toEqual({ L1: 0, L2: 0, L3: 120.5 });
    expect(r.U!.L3).toBe(232.7);
  });

  it('reads online true and false', () => {
    expect(decodeShelly('online', Buffer.from('true'))).toEqual({ ok: true, kind: 'online', online: true });
    expect(decodeShelly('online', Buffer.from('false'))).toEqual({ ok: true, kind: 'online', online: false });
  });

  it('passes over the components and notifications it does not read', () => {
    expect(decodeShelly('status/sys', Buffer.from('{"uptime":3}'))).toEqual({ ok: true, kind: 'ignored' });
    expect(decodeShelly('events/rpc', Buffer.from('{"method":"NotifyEvent","params":{}}'))).toEqual({
      ok: true,
      kind: 'ignored',
    });
  });

  const emText = raw('pro3em_triphase_fw1.7.5_em0.json').toString('utf8');
  it.each([
    ['truncated JSON', 'status/em:0', emText.slice(0, 50)],
    ['a voltage as text', 'status/em:0', JSON.stringify({ ...em, a_voltage: '230' })],
    ['a missing phase', 'status/em:0', JSON.stringify({ ...em, b_voltage: undefined, b_current: undefined })],
    ['a register as text', 'status/emdata:0', JSON.stringify({ ...data, c_total_act_energy: 'lots' })],
    ['an unknown online word', 'online', 'maybe'],
    ['a notification that is not an object', 'events/rpc', '[1,2]'],
    [
      'a full status missing a phase',
      'events/rpc',
      JSON.stringify({ method: 'NotifyFullStatus', params: { 'em:0': { a_voltage: 1 } } }),
    ],
    ['not UTF-8', 'status/em:0', '\u00ff'],
  ])('refuses %s', (_name, sub, text) => {
    const bytes = text === '\u00ff' ? Buffer.from([0xff, 0xfe]) : Buffer.from(text);
    expect(decodeShelly(sub, bytes).ok).toBe(false);
  });
});
