// The load generator of bench/service.ts, in a worker thread so that it runs beside the server
// rather than taking turns with it: `connections` keep-alive connections, each sending its next
// request as soon as the previous answer is read, for `durationMs`. Plain JavaScript: a worker
// thread does not inherit tsx's loader.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

function once(job, agent) {
  return new Promise((resolve, reject) => {
    const req = request(job.url, { method: job.method, headers: job.headers, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(job.body);
  });
}

async function run(job) {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const latenciesMs = [];
  const statuses = {};
  let errors = 0;
  const start = performance.now();
  const end = start + job.durationMs;
  await Promise.all(
    Array.from({ length: job.connections }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const status = await once(job, agent);
          statuses[status] = (statuses[status] ?? 0) + 1;
        } catch {
          errors++;
        }
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  agent.destroy();
  return { latenciesMs, errors, statuses, elapsedMs: performance.now() - start };
}

run(workerData).then((result) => parentPort.postMessage(result));
