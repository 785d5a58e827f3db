import { z } from 'zod';
import { DeviceTokenString, okWith } from './common';

/** Weeks of hourly history a model is trained on by default. */
export const ANOMALY_DEFAULT_WEEKS = 8;
/** Fewest weeks of history a model can be trained on. */
export const ANOMALY_MIN_WEEKS = 3;
/** Most weeks of history a model can be trained on. */
export const ANOMALY_MAX_WEEKS = 52;
/** Hours in a row outside the band before an anomaly is raised, by default. */
export const ANOMALY_DEFAULT_HOURS_IN_ROW = 2;
/** Most hours in a row a model may wait before it raises. */
export const ANOMALY_MAX_HOURS_IN_ROW = 24;
/** How many anomalies the model listing answers, newest first. */
export const ANOMALY_LIST_LIMIT = 50;
/** Longest range of the band read, seconds (a little over a year). */
export const ANOMALY_BAND_MAX_SPAN_SEC = 367 * 86400;

/** Body of POST (read) /anomalies/models: the model of one household meter. */
export const AnomalyModelRequest = z.object({ token: DeviceTokenString });

/** Body of POST (write) /anomalies/models: trains (or retrains) the model of a household meter. */
export const AnomalyTrainRequest = z.object({
  token: DeviceTokenString,
  /** Weeks of history to learn from, counted back from the last whole hour. */
  weeks: z.number().int().min(ANOMALY_MIN_WEEKS).max(ANOMALY_MAX_WEEKS).default(ANOMALY_DEFAULT_WEEKS),
  /** Hours in a row outside the band before an anomaly is raised. */
  hoursInRow: z.number().int().min(1).max(ANOMALY_MAX_HOURS_IN_ROW).default(ANOMALY_DEFAULT_HOURS_IN_ROW),
});

/** Expected consumption of one hour of the week (in the installation's zone), Wh. */
export const AnomalySlot = z.object({
  /** Hour of the week: 0 is Monday 00:00-01:00, 167 is Sunday 23:00-24:00. */
  slot: z.number().int().min(0).max(167),
  /** Median of the hour's consumption over the weeks learned from, Wh. */
  medianWh: z.number(),
  /** Lower end of the expected band, Wh. */
  lowWh: z.number(),
  /** Upper end of the expected band, Wh. */
  highWh: z.number(),
  /** Weeks that had this hour. */
  samples: z.number().int(),
});
/** Expected consumption of one hour of the week. */
export type AnomalySlot = z.infer<typeof AnomalySlot>;

/** A trained model and what it was trained on. */
export const AnomalyModel = z.object({
  /** Weeks asked for. */
  weeks: z.number().int(),
  hoursInRow: z.number().int(),
  /** First and end (exclusive) of the history learned from, unix ms. */
  fromMs: z.number(),
  toMs: z.number(),
  /** Hours of history that had data. */
  hoursUsed: z.number().int(),
  /** When it was trained, unix ms. */
  trainedAtMs: z.number(),
  /** Trained by the weekly schedule (true) or by the owner's button (false). */
  scheduled: z.boolean(),
  slots: z.array(AnomalySlot),
});
/** A trained model and what it was trained on. */
export type AnomalyModel = z.infer<typeof AnomalyModel>;

/** One time the consumption stayed outside the band for long enough. */
export const AnomalyEpisode = z.object({
  id: z.number().int(),
  /** Start of the first hour outside the band, unix ms. */
  startMs: z.number(),
  /** End of the last hour outside the band, unix ms; null while it lasts. */
  endMs: z.number().nullable(),
  /** Hours outside the band so far. */
  hours: z.number().int(),
  /** Above the band (HIGH) or below it (LOW), as in its first hour. */
  direction: z.enum(['HIGH', 'LOW']),
  /** Expected band summed over its hours, Wh. */
  expectedLowWh: z.number(),
  expectedHighWh: z.number(),
  /** Consumption seen over its hours, Wh. */
  seenWh: z.number(),
});
/** One time the consumption stayed outside the band for long enough. */
export type AnomalyEpisode = z.infer<typeof AnomalyEpisode>;

/** History there is to learn from when it is not enough. */
export const AnomalyHistory = z.object({
  fromMs: z.number().nullable(),
  toMs: z.number().nullable(),
  hours: z.number().int(),
  /** Whole weeks spanned by the hours found. */
  weeks: z.number().int(),
});
/** History there is to learn from. */
export type AnomalyHistory = z.infer<typeof AnomalyHistory>;

/** Answer of the model read and of training. */
export const AnomalyModelResponse = okWith(
  z.object({
    /** The model; null when none was trained yet or history is too short. */
    model: AnomalyModel.nullable(),
    /** Set when training found too little history: what there is. */
    notEnoughHistory: AnomalyHistory.nullable(),
    anomalies: z.array(AnomalyEpisode),
  }),
);

/** Body of POST (read) /anomalies/band: the expected band over a range of hours. */
export const AnomalyBandRequest = z
  .object({
    token: DeviceTokenString,
    /** Range start, unix seconds. */
    from: z.number().int().min(0),
    /** Range end (exclusive), unix seconds. */
    to: z.number().int().min(0),
  })
  .refine((r) => r.to > r.from && r.to - r.from <= ANOMALY_BAND_MAX_SPAN_SEC, {
    message: 'to must be after from, at most 367 days later',
    path: ['to'],
  });

/** Answer: per hour [start unix ms, low kWh, high kWh]; empty without a model. */
export const AnomalyBandResponse = okWith(z.array(z.tuple([z.number(), z.number(), z.number()])));
