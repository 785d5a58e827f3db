import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** A phase an appliance is wired to. */
export const AppliancePhase = z.enum(['L1', 'L2', 'L3']);
/** A phase an appliance is wired to. */
export type AppliancePhase = z.infer<typeof AppliancePhase>;

/** Longest appliance name (the portal's limit for names of new objects). */
export const APPLIANCE_NAME_MAX = 24;

/** An appliance's name as the user types it: trimmed, 1 to 24 characters, no control characters. */
export const ApplianceName = z
  .string()
  .trim()
  .min(1)
  .max(APPLIANCE_NAME_MAX)
  .regex(/^[^\p{Cc}]+$/u, 'may not hold control characters');

/** One step of power the meter saw when the appliance switched; positive on, negative off, W. */
export const PowerEdge = z.object({
  phase: AppliancePhase,
  deltaW: z.number().finite().min(-100_000).max(100_000),
});
/** One power edge. */
export type PowerEdge = z.infer<typeof PowerEdge>;

/** Edges a taught imprint holds: the switch-on and the switch-off. */
export const IMPRINT_EDGES = 2;

/**
 * How a teaching ended: LEARNED with exactly two edges (the imprint is stored), else the seed's
 * edge messages: more than 2, less than 2, or no edge detected.
 */
export const TEACH_OUTCOMES = ['LEARNED', 'MORE_THAN_2', 'LESS_THAN_2', 'NO_EDGE'] as const;
/** How a teaching ended. */
export type TeachOutcome = (typeof TEACH_OUTCOMES)[number];

/** The outcome of a teaching from the number of edges the device saw. */
export function teachOutcome(edges: number): TeachOutcome {
  if (edges === 0) return 'NO_EDGE';
  if (edges < IMPRINT_EDGES) return 'LESS_THAN_2';
  if (edges > IMPRINT_EDGES) return 'MORE_THAN_2';
  return 'LEARNED';
}

/** How the portal knows an appliance: taught by a user, or learned by the meter on its own. */
export const ApplianceOrigin = z.enum(['TAUGHT', 'LEARNED']);

/** One appliance of a household meter with what it did in the chosen range. */
export const ApplianceEntry = z.object({
  name: z.string(),
  phase: AppliancePhase.nullable(),
  origin: ApplianceOrigin,
  /** The taught imprint; null when the meter learned the appliance itself or the imprint was removed. */
  imprint: z.array(PowerEdge).nullable(),
  /** Runs that ended in the range. */
  runs: z.number().int().nonnegative(),
  /** Seconds those runs lasted, together. */
  runtimeSec: z.number().nonnegative(),
  /** Energy of those runs, Wh (one decimal). */
  energyWh: z.number().nonnegative(),
  /** When its last run in the range ended, unix ms; null when none did. */
  lastRunMs: z.number().nullable(),
});
/** One appliance with its figures. */
export type ApplianceEntry = z.infer<typeof ApplianceEntry>;

/** The NILM switches of a household meter's device entry. */
export const NilmSettings = z.object({ process: z.boolean(), autoLearn: z.boolean() });
/** The NILM switches. */
export type NilmSettings = z.infer<typeof NilmSettings>;

/** Longest range the appliance figures cover, ms (one year and a day). */
export const APPLIANCE_RANGE_MAX_MS = 367 * 86_400_000;

const rangeMs = z.number().int().min(0).max(8_640_000_000_000);

/** Body of POST /devices/appliances (read door): figures over [from, to), unix ms. */
export const AppliancesRequest = z
  .object({ token: DeviceTokenString, from: rangeMs, to: rangeMs })
  .refine((r) => r.to > r.from && r.to - r.from <= APPLIANCE_RANGE_MAX_MS, {
    message: 'to must follow from, at most 367 days later',
  });
/** Answer: the NILM switches and every appliance with its runs, runtime and energy in the range. */
export const AppliancesResponse = okWith(
  z.object({ settings: NilmSettings, appliances: z.array(ApplianceEntry) }),
);

/** Body of POST /devices/appliances/teach (write door): the device starts listening for edges. */
export const TeachStartRequest = z.object({ token: DeviceTokenString, name: ApplianceName });
/** Answer: the device listens. */
export const TeachStartResponse = okWith(z.object({ name: z.string() }));

/** Body of POST /devices/appliances/teach/finish: the device reports the edges it saw. */
export const TeachFinishRequest = z.object({ token: DeviceTokenString, name: ApplianceName });
/** Answer: the outcome, the edges seen, and the stored appliance when LEARNED. */
export const TeachFinishResponse = okWith(
  z.object({
    outcome: z.enum(TEACH_OUTCOMES),
    edges: z.array(PowerEdge),
    appliance: ApplianceEntry.nullable(),
  }),
);

/** Body of DELETE /devices/appliances and DELETE /devices/appliances/imprint. */
export const ApplianceRemoveRequest = z.object({ token: DeviceTokenString, name: ApplianceName });
/** Answer of a removal. */
export const ApplianceRemoveResponse = okWith(z.object({ name: z.string() }));

/** Body of POST /devices/nilm: the NILM switches sent to the device and kept. */
export const NilmSettingsRequest = z.object({
  token: DeviceTokenString,
  process: z.boolean(),
  autoLearn: z.boolean(),
});
/** Answer: the switches as the device confirmed them. */
export const NilmSettingsResponse = okWith(NilmSettings);
