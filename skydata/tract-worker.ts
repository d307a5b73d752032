// A worker thread that renders tracts and writes their tiles (and any captain-note cut-outs),
// so that the build uses every core: jobs arrive as plain data on the parent port.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { colourComposite } from './composite';
import { encodePng } from './png';
import { renderTract, writeTractTiles, type TractPlan } from './tract';

export interface Cutout {
  file: string;
  x: number;
  y: number;
  side: number;
}

export interface TractJob {
  id: number;
  surveyDirectory: string;
  plan: TractPlan;
  cutouts: Cutout[];
}

export function runTractJob(job: TractJob): number {
  const bands = renderTract(job.plan);
  let bytes = writeTractTiles(job.surveyDirectory, job.plan, bands);
  for (const cutout of job.cutouts) {
    const png = encodePng(colourComposite(bands, job.plan.wcs.NAXIS1, cutout.x, cutout.y, cutout.side));
    fs.mkdirSync(path.dirname(cutout.file), { recursive: true });
    fs.writeFileSync(cutout.file, png);
    bytes += png.length;
  }
  return bytes;
}

parentPort?.on('message', (job: TractJob) => {
  try {
    parentPort!.postMessage({ id: job.id, bytes: runTractJob(job) });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.stack : String(error) });
  }
});
