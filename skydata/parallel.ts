// Runs tract jobs on worker threads (one per core, at most GALAXY_CRUISE_SKY_THREADS), or in
// this thread when only one is allowed (threads started by core/node-worker.ts).
import os from 'node:os';
import { startNodeThread } from '../core/node-worker';
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
  const startWorker = () => startNodeThread(new URL('./tract-worker.ts', import.meta.url));
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
