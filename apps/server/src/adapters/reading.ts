// What a device family's payload says, in the portal's units, before it becomes a live frame.
// A quantity the payload lacks is absent here, never zero.
import type { LiveFrame } from '@meterportal/protocol';

/** A phase of the portal's frames. */
export type Phase = 'L1' | 'L2' | 'L3';
/** The phases, in order. */
export const PHASES: readonly Phase[] = ['L1', 'L2', 'L3'];

/** Values of the phases a payload has. */
export type PhaseSet = Partial<Record<Phase, number>>;

/** A cumulative register: per phase when the device counts per phase, else its total. */
export interface Register {
  phasesWh?: PhaseSet;
  totalWh?: number;
}

/** Instantaneous quantities and registers a payload carried (units of the live frame). */
export interface MeterReading {
  /** Device time of the reading, unix seconds, when the payload carries one. */
  tsSec?: number;
  /** Voltage to neutral, V. */
  U?: PhaseSet;
  /** Current, A. */
  I?: PhaseSet;
  /** Active power, W, negative while exporting. */
  P?: PhaseSet;
  /** Reactive power, var. */
  Q?: PhaseSet;
  /** Apparent power, VA. */
  S?: PhaseSet;
  /** Power factor. */
  PF?: PhaseSet;
  /** Mains frequency, Hz. */
  F?: number;
  /** Active energy imported. */
  E_I?: Register;
  /** Active energy exported. */
  E_E?: Register;
}

/** Why a family payload was refused (counted as `adapter_<reason>`). */
export type AdapterRejectReason = 'json' | 'schema' | 'crc' | 'telegram' | 'time' | 'encoding' | 'oversized';

/** A refusal of a family payload. */
export interface AdapterReject {
  ok: false;
  reason: AdapterRejectReason;
  detail: string;
}

/** A refusal, named. */
export const refuse = (reason: AdapterRejectReason, detail: string): AdapterReject => ({
  ok: false,
  reason,
  detail: detail.slice(0, 200),
});

/** Largest family payload taken (a P1 telegram with every object is under 3 kB). */
export const FAMILY_PAYLOAD_MAX_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The payload's JSON, or a refusal. */
export function parseJson(bytes: Uint8Array): { ok: true; json: unknown } | AdapterReject {
  if (bytes.byteLength > FAMILY_PAYLOAD_MAX_BYTES) return refuse('oversized', `${bytes.byteLength} bytes`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refuse('encoding', 'not UTF-8');
  }
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (e) {
    return refuse('json', e instanceof Error ? e.message : 'bad JSON');
  }
}

const phaseFrame = (set: PhaseSet | undefined) => ({
  L1: set?.L1 ?? null,
  L2: set?.L2 ?? null,
  L3: set?.L3 ?? null,
});

/**
 * The register's whole watt-hours per phase. A register the device keeps only as a total is
 * carried on L1, so the summed energy is the device's own count.
 */
function registerFrame(r: Register | undefined) {
  const whole = (v: number | undefined) => Math.max(0, Math.floor(v ?? 0));
  if (r?.phasesWh) return { L1: whole(r.phasesWh.L1), L2: whole(r.phasesWh.L2), L3: whole(r.phasesWh.L3) };
  return { L1: whole(r?.totalWh), L2: 0, L3: 0 };
}

/**
 * The portal's live frame of a reading at tsSec. An instantaneous quantity or phase the payload
 * lacks is null, never a zero that looks measured; which registers a family keeps is told by its
 * quantity list (FAMILY_QUANTITIES), so a register it lacks stays 0 and is never charted.
 */
export function readingToFrame(r: MeterReading, tsSec: number): LiveFrame {
  const none = phaseFrame(undefined);
  const zeroRegister = { L1: 0, L2: 0, L3: 0 };
  return {
    ts: tsSec,
    U: phaseFrame(r.U),
    I: phaseFrame(r.I),
    P: phaseFrame(r.P),
    Q: phaseFrame(r.Q),
    S: phaseFrame(r.S),
    PF: phaseFrame(r.PF),
    DF_U: none,
    DF_I: none,
    F_U: none,
    F_I: none,
    U_PP: none,
    F_UPP: none,
    F: r.F ?? null,
    E_I: registerFrame(r.E_I),
    E_E: registerFrame(r.E_E),
    Q1: zeroRegister,
    Q2: zeroRegister,
    Q3: zeroRegister,
    Q4: zeroRegister,
    Q_E: zeroRegister,
    S_E: zeroRegister,
  };
}
