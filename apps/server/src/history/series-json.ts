/**
 * Series answers written straight into bytes. A day profile of every quantity is about 50,000
 * [time, value] points; building them as arrays and handing them to JSON.stringify costs four
 * times what writing the digits does, so the profile answer is written here from its columns.
 */

/** A series held as columns: epoch-millisecond times (shared between series) and their values. */
export interface ColumnSeries {
  times: Float64Array;
  values: Float64Array;
}

/** Per-phase columns of one quantity, with the sum (or average) over the phases. */
export interface PhaseColumns {
  L1?: ColumnSeries;
  L2?: ColumnSeries;
  L3?: ColumnSeries;
  cumulative: ColumnSeries;
}

/** data of a profile answer: per-phase quantities and the plain F series. */
export type ProfileColumns = Record<string, ColumnSeries | PhaseColumns>;

/** Values of a profile answer carry three decimals: mV, mA, mW, mHz, Wh in kWh, 0.001 of PF. */
export const PROFILE_DECIMALS = 3;

const MAX_FIXED = 1e12;
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;

/** A growable byte buffer for ASCII JSON. */
class Writer {
  buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  ensure(extra: number) {
    if (this.pos + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  ascii(text: string) {
    this.ensure(text.length);
    this.pos += this.buf.write(text, this.pos, 'latin1');
  }

  bytes(b: Buffer) {
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  /** A non-negative whole number below 2^53. */
  uint(x: number) {
    const buf = this.buf;
    if (x === 0) {
      buf[this.pos++] = 48;
      return;
    }
    const start = this.pos;
    while (x > 0) {
      const q = Math.floor(x / 10);
      buf[this.pos++] = 48 + (x - q * 10);
      x = q;
    }
    for (let a = start, b = this.pos - 1; a < b; a++, b--) {
      const t = buf[a]!;
      buf[a] = buf[b]!;
      buf[b] = t;
    }
  }

  /** A value rounded to three decimals, trailing zeros left out, as JSON writes such a number. */
  fixed3(v: number) {
    if (!(Math.abs(v) < MAX_FIXED)) {
      // NaN and the infinities become null, as in JSON.stringify; huge values keep their form.
      this.ascii(JSON.stringify(v));
      return;
    }
    let m = Math.round(v * 1000);
    if (m < 0) {
      this.buf[this.pos++] = 45;
      m = -m;
    }
    const whole = Math.floor(m / 1000);
    let frac = m - whole * 1000;
    this.uint(whole);
    if (frac === 0) return;
    const buf = this.buf;
    buf[this.pos++] = 46;
    buf[this.pos++] = 48 + Math.floor(frac / 100);
    frac %= 100;
    if (frac === 0) return;
    buf[this.pos++] = 48 + Math.floor(frac / 10);
    frac %= 10;
    if (frac !== 0) buf[this.pos++] = 48 + frac;
  }

  done(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** Room for one point: a time, a value in its widest form and the brackets and commas. */
const POINT_BYTES = 64;

function writeSeries(w: Writer, s: ColumnSeries, timeText: Map<Float64Array, Buffer[]>) {
  let texts = timeText.get(s.times);
  if (!texts) {
    texts = Array.from(s.times, (t) => Buffer.from(String(t), 'latin1'));
    timeText.set(s.times, texts);
  }
  const n = s.values.length;
  w.ensure(2);
  w.buf[w.pos++] = OPEN;
  for (let i = 0; i < n; i++) {
    w.ensure(POINT_BYTES);
    if (i > 0) w.buf[w.pos++] = COMMA;
    w.buf[w.pos++] = OPEN;
    w.bytes(texts[i]!);
    w.buf[w.pos++] = COMMA;
    w.fixed3(s.values[i]!);
    w.buf[w.pos++] = CLOSE;
  }
  w.ensure(1);
  w.buf[w.pos++] = CLOSE;
}

const isSeries = (x: ColumnSeries | PhaseColumns): x is ColumnSeries => 'values' in x;

/** `{"status":"OK","resolution":"...","data":{...}}` of a profile, as UTF-8 JSON bytes. */
export function encodeProfile(data: ProfileColumns, resolution: string): Buffer {
  // Sized for points of a typical width up front, so the bytes are seldom copied to grow.
  let points = 0;
  for (const entry of Object.values(data)) {
    if (isSeries(entry)) points += entry.values.length;
    else for (const s of [entry.L1, entry.L2, entry.L3, entry.cumulative]) points += s?.values.length ?? 0;
  }
  const w = new Writer(1024 + points * 28);
  const timeText = new Map<Float64Array, Buffer[]>();
  w.ascii(`{"status":"OK","resolution":${JSON.stringify(resolution)},"data":{`);
  let first = true;
  for (const [key, entry] of Object.entries(data)) {
    w.ascii(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (isSeries(entry)) {
      writeSeries(w, entry, timeText);
      continue;
    }
    w.ascii('{');
    let firstPhase = true;
    for (const name of ['L1', 'L2', 'L3', 'cumulative'] as const) {
      const s = entry[name];
      if (!s) continue;
      w.ascii(`${firstPhase ? '' : ','}"${name}":`);
      firstPhase = false;
      writeSeries(w, s, timeText);
    }
    w.ascii('}');
  }
  w.ascii('}}');
  return w.done();
}
