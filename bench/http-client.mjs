// The benchmark's HTTP client, in a worker thread of its own: it stands for a browser on another
// machine, so the parsing of its answers and the garbage it leaves are not charged to the
// server's event loop and heap. Latency is the time from sending a request to its last byte.
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string, cookie: string, bodies: string[] }} */
const job = workerData;
// A few untimed requests first open the connection and warm the client's own code.
const WARMUP = 5;
for (const body of job.bodies.slice(0, WARMUP)) {
  const res = await fetch(job.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: job.cookie },
    body,
  });
  await res.arrayBuffer();
}
const times = [];
let bytes = 0;
for (const [i, body] of job.bodies.entries()) {
  const started = performance.now();
  const res = await fetch(job.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: job.cookie },
    body,
  });
  const raw = await res.arrayBuffer();
  times.push(performance.now() - started);
  // A PDF report answers its bytes; everything else the JSON envelope.
  if (res.headers.get('content-type') === 'application/pdf') {
    if (res.status !== 200 || Buffer.from(raw).subarray(0, 5).toString() !== '%PDF-')
      throw new Error(`${job.url}: HTTP ${res.status}`);
  } else {
    const json = JSON.parse(Buffer.from(raw).toString());
    if (json.status !== 'OK') throw new Error(`${job.url}: ${Buffer.from(raw).toString().slice(0, 200)}`);
  }
  if (i === 0) bytes = raw.byteLength;
}
parentPort.postMessage({ times, bytes });
