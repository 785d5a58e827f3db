// At start, with an external broker: does it hold back messages while the portal's PUBACKs wait
// for a commit? Ingest acknowledges a message only once it is committed, so a broker that sends
// at most N unacknowledged messages to a client (Mosquitto's max_inflight_messages, 20 by default)
// caps ingest near N messages per commit. The probe publishes PROBE_COUNT messages to itself and
// holds their PUBACKs: a broker without that limit delivers them all at once; one with it stops
// at its limit (less what device messages already hold), and a warning names the setting.

/** Topic of the probe, under the portal's own `portal/#` rights. */
export const PROBE_TOPIC = 'portal/probe/inflight';
/** Messages the probe sends: more than the small defaults, far fewer than a sound setting. */
export const PROBE_COUNT = 200;
/** How long deliveries may pause before the probe concludes the broker is holding back. */
const QUIET_MS = 500;
/** Longest the probe waits in all. */
const LIMIT_MS = 5000;

/** What the probe saw: every probe message delivered, or how many were in flight when it stalled. */
export type ProbeResult = { stalled: false } | { stalled: true; inFlight: number; probeDelivered: number };

/** Collects the probe's deliveries and holds their PUBACKs until it ends. */
export function createInflightProbe(deps: {
  /** Unacknowledged device messages on the link right now. */
  heldDeviceMessages(): number;
  sendPuback(messageId: number): void;
}) {
  const heldIds: number[] = [];
  let lastAt = Date.now();
  let running = false;

  return {
    /** Takes a delivery on PROBE_TOPIC: held during a run, acknowledged at once otherwise. */
    onDelivery(messageId: number): void {
      if (!running) {
        deps.sendPuback(messageId);
        return;
      }
      heldIds.push(messageId);
      lastAt = Date.now();
    },
    /** Publishes the probe and waits until all arrived or deliveries paused. */
    async run(publish: (i: number) => Promise<void>): Promise<ProbeResult> {
      running = true;
      const start = Date.now();
      lastAt = start;
      try {
        // Not awaited in turn: the broker acknowledges our publishes independently of delivery.
        await Promise.all(Array.from({ length: PROBE_COUNT }, (_, i) => publish(i)));
        while (
          heldIds.length < PROBE_COUNT &&
          Date.now() - lastAt < QUIET_MS &&
          Date.now() - start < LIMIT_MS
        )
          await new Promise((r) => setTimeout(r, 20));
        const probeDelivered = heldIds.length;
        return probeDelivered >= PROBE_COUNT
          ? { stalled: false }
          : { stalled: true, probeDelivered, inFlight: probeDelivered + deps.heldDeviceMessages() };
      } finally {
        running = false;
        for (const id of heldIds.splice(0)) deps.sendPuback(id);
      }
    },
  };
}
