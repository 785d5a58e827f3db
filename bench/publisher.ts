// Publisher process of the ingest benchmark: plays N meters over a few MQTT connections at one
// frame per meter per second, as the parent asks through IPC. Frames are real live frames of the
// simulator's model; each second only the time and the import register move on.
import mqtt from 'mqtt';
import { createMeterModel, createRegisters, meterProfile } from '@meterportal/simulator';
import { deviceTopic, type LiveFrame } from '@meterportal/protocol';

const url = process.argv[2]!;
const CONNECTIONS = 8;

interface Step {
  macs: string[];
  seconds: number;
  topicPrefix?: string;
}

const clients = await Promise.all(
  Array.from({ length: CONNECTIONS }, (_, i) =>
    mqtt.connectAsync(url, { clientId: `bench-pub-${process.pid}-${i}`, clean: true }),
  ),
);
const model = createMeterModel(meterProfile(4, '02-BE-00-00-00-00'));
const registers = createRegisters(7);
const nowSec = Math.floor(Date.now() / 1000);
const instant = model.sample(nowSec);
registers.integrate(instant, 1);
const template: LiveFrame = { ts: nowSec, ...instant, ...registers.read() };

/** Frames sent and how long sending took, from the first frame (after aligning to a second). */
async function run(step: Step): Promise<{ sent: number; ms: number }> {
  let sent = 0;
  // Start on a whole second and stamp each frame with the second it is sent in, as a meter
  // stamps the second it measured, so the delay from a minute's end to its row is not flattered.
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
  const start = Date.now();
  const base = Math.floor(start / 1000);
  for (let s = 0; s < step.seconds; s++) {
    const tsSec = base + s;
    const perTick = Math.ceil(step.macs.length / 20);
    for (let i = 0; i < step.macs.length; i += perTick) {
      // Spread a second's frames over 20 ticks of 50 ms.
      const slice = step.macs.slice(i, i + perTick);
      for (const [k, mac] of slice.entries()) {
        const e = template.E_I;
        const frame = { ...template, ts: tsSec, E_I: { L1: e.L1 + s, L2: e.L2 + s, L3: e.L3 + s } };
        const topic = step.topicPrefix ? `${step.topicPrefix}/${mac}/live` : deviceTopic(mac, 'live');
        clients[(i + k) % CONNECTIONS]!.publish(topic, JSON.stringify(frame), { qos: 1 });
        sent++;
      }
      const due = start + s * 1000 + ((i / perTick + 1) * 1000) / 20;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  return { sent, ms: Date.now() - start };
}

process.on('message', (m: Step | 'exit') => {
  if (m === 'exit') {
    void Promise.all(clients.map((c) => c.endAsync())).then(() => process.exit(0));
    return;
  }
  void run(m).then((r) => process.send?.(r));
});
// Ends with the benchmark that forked it, however that one ended.
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
