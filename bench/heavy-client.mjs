// Sessions that keep one costly read each in flight, in a worker thread of their own: they stand
// for other users' browsers, so receiving their answers is not charged to the server's event loop
// or to the light client's. Runs until told 'stop', then posts the count of answers by status.
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, cookies: string[], body: string, strict: boolean }} */
const job = workerData;
let running = true;
parentPort.on('message', (m) => {
  if (m === 'stop') running = false;
});
const statuses = {};
let failure = null;
await Promise.all(
  job.cookies.map(async (cookie) => {
    while (running && !failure) {
      const res = await fetch(job.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: job.body,
      });
      await res.arrayBuffer();
      if (job.strict && res.status !== 200) failure = `heavy read answered ${res.status}`;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  }),
);
parentPort.postMessage({ statuses, failure });
