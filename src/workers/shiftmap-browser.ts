// The page's shiftmap service: one browser module worker, started on the first job and
// stopped 5 s after the queue empties (src/workers/shiftmap-service.ts).
import { startBrowserWorker } from './browser-pool';
import { ShiftmapService } from './shiftmap-service';

let service: ShiftmapService | undefined;

/** The page-wide shiftmap service, made on first use (no worker runs until a job is queued). */
export function shiftmapService(): ShiftmapService {
  service ??= new ShiftmapService(startBrowserWorker);
  return service;
}
