// A page's main-thread tasks read from a Chrome trace (the Trace Event Format's complete 'X'
// events), each split into the frame's hand-off to the compositor (`Commit`), waits for the GPU
// process, and the page's own work. Without a GPU (SwiftShader, `--disable-gpu`) the compositor
// reads every WebGL frame back inside `Commit` (`GLES2::ReadPixels`), and the main thread waits
// there while the GPU process draws the frame on the CPU: a long task, growing with the canvas's
// pixels, that a hardware GPU does not have. A task's own work is the main thread's CPU time
// (the events' `tdur`) outside `Commit`: what the page's scripts, style, layout, paint and garbage
// collection cost, the part that shows whether decoding stayed in the workers. CPU time, not wall
// time, because on a shared machine a task's wall time also counts the time the thread waited
// for a core. Used by the globe bench and the pretty-picture e2e test.

/** The trace categories that `mainThreadTasks` reads (for `browser.startTracing`). */
export const MAIN_THREAD_TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'gpu', 'blink.user_timing'];

/** The events that are the main thread waiting for the GPU process to run its commands. */
const GPU_WAITS = new Set([
  'ImplementationBase::WaitForCmd',
  'CommandBufferHelper::Finish',
  'CommandBufferProxyImpl::WaitForGetOffset',
]);

interface TraceEvent {
  name?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  ts?: number;
  dur?: number;
  /** The thread's CPU time in the event, in microseconds. */
  tdur?: number;
}

type TimedEvent = TraceEvent & Required<Pick<TraceEvent, 'name' | 'ts' | 'dur'>>;

export interface MainThreadTask {
  /** Milliseconds from the mark. */
  start: number;
  duration: number;
  /** Milliseconds (wall) of the task spent handing its frame to the compositor (`Commit`). */
  commit: number;
  /** Milliseconds (wall) of the task spent waiting for the GPU process outside the commit. */
  gpuWait: number;
  /** Milliseconds of the main thread's CPU time in the task outside the commit. */
  own: number;
}

/**
 * The top-level tasks of the main thread that set the user-timing mark `mark`
 * (`performance.mark`), in order, from that mark on and, given `until`, starting before that mark.
 */
export function mainThreadTasks(trace: Buffer | string, mark: string, until?: string): MainThreadTask[] {
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const origin = events.find((event) => event.name === mark && event.ts !== undefined);
  if (!origin) throw new Error(`the trace has no mark '${mark}'`);
  const end =
    until === undefined ? undefined : events.find((event) => event.name === until && event.pid === origin.pid);
  if (until !== undefined && end?.ts === undefined) throw new Error(`the trace has no mark '${until}'`);
  const onThread = events.filter(
    (event): event is TimedEvent =>
      event.ph === 'X' &&
      event.pid === origin.pid &&
      event.tid === origin.tid &&
      event.name !== undefined &&
      event.ts !== undefined &&
      event.dur !== undefined,
  );
  const tasks = onThread.filter(
    (event) => event.name === 'RunTask' && event.ts + event.dur >= origin.ts! && event.ts < (end?.ts ?? Infinity),
  );
  const commits = onThread.filter((event) => event.name === 'Commit');
  const waits = onThread.filter((event) => GPU_WAITS.has(event.name));
  const result: MainThreadTask[] = [];
  let lastEnd = -Infinity;
  for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
    // A RunTask nested in another (a nested run loop) is part of the outer one.
    if (task.ts < lastEnd) continue;
    lastEnd = task.ts + task.dur;
    const within = commits.filter((event) => event.ts >= task.ts && event.ts < lastEnd);
    const commit = coveredWithin(task, within);
    const excluded = coveredWithin(task, [...within, ...waits]);
    // Commits do not nest: their CPU times add up.
    const commitCpu = within.reduce((sum, event) => sum + (event.tdur ?? event.dur), 0);
    result.push({
      start: (task.ts - origin.ts!) / 1000,
      duration: task.dur / 1000,
      commit: commit / 1000,
      gpuWait: (excluded - commit) / 1000,
      own: Math.max(0, (task.tdur ?? task.dur) - commitCpu) / 1000,
    });
  }
  return result;
}

/** Microseconds of `task` covered by the union of `events` (which may nest and overlap). */
function coveredWithin(task: TimedEvent, events: TimedEvent[]): number {
  const end = task.ts + task.dur;
  let covered = 0;
  let reached = task.ts;
  for (const event of [...events].sort((a, b) => a.ts - b.ts)) {
    if (event.ts >= end) break;
    const from = Math.max(event.ts, reached);
    const to = Math.min(event.ts + event.dur, end);
    if (to > from) {
      covered += to - from;
      reached = to;
    }
  }
  return covered;
}
