import { Worker } from 'node:worker_threads';
import { percentile, r2 } from './stats';

/**
 * Latency of one read route: the bodies are sent one after another from a worker thread
 * (http-client.mjs), which stands for a browser on another machine; p50, p99, max and answer bytes.
 */
export async function measureRoute(job: {
  base: string;
  route: string;
  cookie: string;
  bodies: string[];
}): Promise<{ requests: number; p50Ms: number; p99Ms: number; maxMs: number; responseBytes: number }> {
  const worker = new Worker(new URL('./http-client.mjs', import.meta.url), {
    workerData: { url: `${job.base}/api/read/${job.route}`, cookie: job.cookie, bodies: job.bodies },
  });
  const { times, bytes } = await new Promise<{ times: number[]; bytes: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return {
    requests: job.bodies.length,
    p50Ms: r2(percentile(times, 50)),
    p99Ms: r2(percentile(times, 99)),
    maxMs: r2(Math.max(...times)),
    responseBytes: bytes,
  };
}
