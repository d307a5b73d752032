// Runs tract jobs on worker threads (one per core, at most GALAXY_CRUISE_SKY_THREADS), or in
// this thread when only one is allowed. From the sources, each thread registers tsx's loader
// before importing the TypeScript worker module (an `--import tsx` flag does not reach worker
// threads on Node 20).
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { runTractJob, type TractJob } from './tract-worker';

export function threadCount(): number {
  const limit = Number(process.env.GALAXY_CRUISE_SKY_THREADS ?? 0);
  const cores = os.availableParallelism();
  return Math.max(1, limit > 0 ? Math.min(limit, cores) : cores);
}

export async function runTractJobs(jobs: TractJob[], onDone: (job: TractJob, bytes: number) => void): Promise<number> {
  const threads = Math.min(threadCount(), jobs.length);
  let total = 0;
  if (threads <= 1) {
    for (const job of jobs) {
      const bytes = runTractJob(job);
      total += bytes;
      onDone(job, bytes);
    }
    return total;
  }
  const startWorker = () => {
    // From the JavaScript build (this module is a .js file in build/node/), the worker's own
    // entry lies beside it; from the sources, a bootstrap registers tsx's loader first.
    if (import.meta.url.endsWith('.js')) return new Worker(new URL('./tract-worker.js', import.meta.url));
    const tsx = import.meta.resolve('tsx/esm/api');
    const module = new URL('./tract-worker.ts', import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); })`;
    return new Worker(bootstrap, { eval: true });
  };
  const queue = jobs.slice();
  const byId = new Map(jobs.map((job) => [job.id, job]));
  await Promise.all(
    Array.from({ length: threads }, async () => {
      const worker = startWorker();
      try {
        for (let job = queue.shift(); job; job = queue.shift()) {
          const reply = await new Promise<{ id: number; bytes?: number; error?: string }>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(job);
          });
          worker.removeAllListeners('error');
          if (reply.error !== undefined) throw new Error(`tract ${job.plan.tract}: ${reply.error}`);
          total += reply.bytes ?? 0;
          onDone(byId.get(reply.id)!, reply.bytes ?? 0);
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return total;
}
