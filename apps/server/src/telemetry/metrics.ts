// Prometheus metrics of the device link; one registry object per server, served at /metrics.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Creates the telemetry metrics, registered in the given registry (a new one by default). */
export function createTelemetryMetrics(registry: Registry = new Registry()) {
  const registers = [registry];
  return {
    registry,
    messages: new Counter({
      name: 'telemetry_messages_total',
      help: 'Device messages accepted, by topic kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    rejects: new Counter({
      name: 'telemetry_rejects_total',
      help: 'Device messages dropped, by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
    duplicates: new Counter({
      name: 'telemetry_duplicate_frames_total',
      help: 'Live frames at or before the stored position of their device (redelivery), ignored',
      registers,
    }),
    registerAnomalies: new Counter({
      name: 'telemetry_register_anomalies_total',
      help: 'Register changes not counted as they stood: reset, jump, or gap',
      labelNames: ['kind'] as const,
      registers,
    }),
    batchRows: new Histogram({
      name: 'telemetry_batch_rows',
      help: 'Rows written per ingest transaction',
      buckets: [1, 10, 100, 1000, 5000, 20000, 100000],
      registers,
    }),
    commitSeconds: new Histogram({
      name: 'telemetry_commit_seconds',
      help: 'Duration of one ingest transaction',
      buckets: [0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
      registers,
    }),
    minuteDelaySeconds: new Histogram({
      name: 'telemetry_minute_commit_delay_seconds',
      help: 'Time from the end of a minute to its aggregate being committed',
      // Fine around the 2 s objective, so its p99 can be read off /metrics.
      buckets: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 5, 10, 30, 60],
      registers,
    }),
    commitFailures: new Counter({
      name: 'telemetry_commit_failures_total',
      help: 'Ingest commits that failed because the store was unreachable; their rows are retried and their messages stay unacknowledged',
      registers,
    }),
    storeUp: new Gauge({
      name: 'telemetry_store_up',
      help: '1 while ingest commits succeed, 0 during a store outage',
      registers,
    }),
    storeRefusals: new Counter({
      name: 'telemetry_store_refusals_total',
      help: 'Devices whose rows of one ingest batch the store refused while it answered; those rows were dropped, the other devices stored',
      registers,
    }),
    clockRefusals: new Counter({
      name: 'telemetry_clock_refusals_total',
      help: 'Device messages refused for their time: clock_ahead (beyond the tolerance) or clock_behind (implausibly old)',
      labelNames: ['reason'] as const,
      registers,
    }),
    brokerConnected: new Gauge({
      name: 'telemetry_broker_connected',
      help: '1 while the ingest link to the external broker is connected',
      registers,
    }),
    brokerDisconnects: new Counter({
      name: 'telemetry_broker_disconnects_total',
      help: 'Times the ingest link to the external broker was lost',
      registers,
    }),
    pending: new Gauge({
      name: 'telemetry_pending_rows',
      help: 'Rows waiting for the next transaction',
      registers,
    }),
  };
}

/** Telemetry metrics. */
export type TelemetryMetrics = ReturnType<typeof createTelemetryMetrics>;
