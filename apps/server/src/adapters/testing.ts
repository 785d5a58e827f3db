// Payloads of each family for tests, written the way the devices write them.
import { wallTime } from '../history/calendar';
import { crc16Arc } from './p1';

const two = (n: number) => String(n).padStart(2, '0');

/** Tasmota's `Time`: local wall time in tz, no zone. */
export function tasmotaTime(tsSec: number, tz: string): string {
  const w = wallTime(tsSec, tz);
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** A Tasmota SENSOR message of a single-phase plug. */
export function tasmotaSensor(tsSec: number, tz: string, totalKwh: number, powerW: number): string {
  return JSON.stringify({
    Time: tasmotaTime(tsSec, tz),
    ENERGY: {
      TotalStartTime: '2024-01-01T00:00:00',
      Total: totalKwh,
      Yesterday: 0.5,
      Today: 0.25,
      Period: 3,
      Power: powerW,
      ApparentPower: powerW + 10,
      ReactivePower: 20,
      Factor: 0.97,
      Voltage: 231,
      Current: Math.round((powerW / 231) * 1000) / 1000,
    },
  });
}

/** A P1 time `YYMMDDhhmmss` in tz with its S/W flag (S where the offset is above January's). */
function p1Stamp(tsSec: number, tz: string, summer?: boolean): string {
  const w = wallTime(tsSec, tz);
  const offset = (t: number) => {
    const x = wallTime(t, tz);
    return Date.UTC(x.year, x.month - 1, x.day, x.hour, x.minute, x.second) / 1000 - t;
  };
  const s = summer ?? offset(tsSec) > offset(Date.UTC(w.year, 0, 1) / 1000);
  return `${two(w.year % 100)}${two(w.month)}${two(w.day)}${two(w.hour)}${two(w.minute)}${two(w.second)}${s ? 'S' : 'W'}`;
}

/** The Belgian capacity-tariff objects of a telegram: running demand, month peak, closed months. */
export interface P1Capacity {
  averageKw: number;
  monthPeak: { atSec: number; kw: number };
  /** Closed months, newest first: closed at the next month's first midnight. */
  history: { closedSec: number; atSec: number; kw: number }[];
}

/**
 * A DSMR 5 telegram with its CRC; `summer` sets the S/W flag of its local time in tz. With
 * `capacity`, it carries the Belgian capacity-tariff objects as a Fluvius meter sends them.
 */
export function p1Telegram(
  tsSec: number,
  tz: string,
  summer: boolean,
  r: { t1Kwh: number; t2Kwh: number; exportKwh: number; powerKw: number; voltageV: number },
  capacity?: P1Capacity,
): Buffer {
  const stamp = p1Stamp(tsSec, tz, summer);
  const kwh = (v: number) => v.toFixed(3).padStart(10, '0');
  const kw = (v: number) => `${v.toFixed(3).padStart(6, '0')}*kW`;
  const belgian = capacity
    ? [
        `1-0:1.4.0(${kw(capacity.averageKw)})`,
        `1-0:1.6.0(${p1Stamp(capacity.monthPeak.atSec, tz)})(${kw(capacity.monthPeak.kw)})`,
        `0-0:98.1.0(${capacity.history.length})(1-0:1.6.0)(1-0:1.6.0)${capacity.history
          .map((h) => `(${p1Stamp(h.closedSec, tz)})(${p1Stamp(h.atSec, tz)})(${kw(h.kw)})`)
          .join('')}`,
      ]
    : [];
  const body = [
    '/ISK5\\2M550T-1012',
    '',
    '1-3:0.2.8(50)',
    `0-0:1.0.0(${stamp})`,
    '0-0:96.1.1(4530303434303037313331363530323136)',
    `1-0:1.8.1(${kwh(r.t1Kwh)}*kWh)`,
    `1-0:1.8.2(${kwh(r.t2Kwh)}*kWh)`,
    `1-0:2.8.1(${kwh(r.exportKwh)}*kWh)`,
    '1-0:2.8.2(000000.000*kWh)',
    '0-0:96.14.0(0002)',
    `1-0:1.7.0(${r.powerKw.toFixed(3).padStart(6, '0')}*kW)`,
    '1-0:2.7.0(00.000*kW)',
    `1-0:32.7.0(${r.voltageV.toFixed(1)}*V)`,
    '1-0:31.7.0(002*A)',
    `1-0:21.7.0(${r.powerKw.toFixed(3).padStart(6, '0')}*kW)`,
    '1-0:22.7.0(00.000*kW)',
    ...belgian,
    '!',
  ].join('\r\n');
  const crc = crc16Arc(Buffer.from(body, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
  return Buffer.from(`${body}${crc}\r\n`, 'latin1');
}

/** A Shelly Pro 3EM `em:0` status with the given power on each phase. */
export function shellyEm(powerW: [number, number, number]): string {
  const [a, b, c] = powerW;
  const phase = (k: string, p: number, u: number) => ({
    [`${k}_current`]: Math.round((p / u) * 1000) / 1000,
    [`${k}_voltage`]: u,
    [`${k}_act_power`]: p,
    [`${k}_aprt_power`]: p + 5,
    [`${k}_pf`]: 0.98,
    [`${k}_freq`]: 50,
  });
  return JSON.stringify({
    id: 0,
    ...phase('a', a, 230.1),
    ...phase('b', b, 231.2),
    ...phase('c', c, 229.3),
    n_current: null,
    total_current: 1,
    total_act_power: a + b + c,
    total_aprt_power: a + b + c + 15,
    user_calibrated_phase: [],
  });
}

/** A Shelly Pro 3EM `emdata:0` status with the given import registers, Wh. */
export function shellyEmData(importWh: [number, number, number]): string {
  const [a, b, c] = importWh;
  return JSON.stringify({
    id: 0,
    a_total_act_energy: a,
    a_total_act_ret_energy: 0,
    b_total_act_energy: b,
    b_total_act_ret_energy: 0,
    c_total_act_energy: c,
    c_total_act_ret_energy: 0,
    total_act: a + b + c,
    total_act_ret: 0,
  });
}
