// Main-thread tasks from a Chrome trace (bench/main-thread.ts): the tasks of the thread that
// set the mark, from it on, each split into the compositor's commit, waits for the GPU process
// and the page's own CPU time. The events are shaped as Chromium writes them (Trace Event Format
// complete events: ts, dur and tdur in microseconds).
import { describe, expect, it } from 'vitest';
import { mainThreadTasks } from '../../bench/main-thread';

const MAIN = { pid: 10, tid: 10 };
const OTHER = { pid: 10, tid: 11 };

function complete(name: string, ts: number, dur: number, tdur: number, thread = MAIN) {
  return { name, ph: 'X', ts, dur, tdur, ...thread };
}

const mark = (name: string, ts: number, thread = MAIN) => ({ name, ph: 'I', ts, ...thread });

/** A frame of 100 ms: 20 ms of script, then a 75 ms commit that waits 60 ms for the GPU process. */
function frame(ts: number) {
  return [
    complete('RunTask', ts, 100_000, 30_000),
    complete('FireAnimationFrame', ts, 20_000, 19_000),
    complete('ImplementationBase::WaitForCmd', ts + 5_000, 3_000, 0),
    complete('CommandBufferHelper::Finish', ts + 5_000, 3_000, 0),
    complete('Commit', ts + 25_000, 75_000, 8_000),
    complete('GLES2::ReadPixels', ts + 30_000, 62_000, 1_000),
    complete('ImplementationBase::WaitForCmd', ts + 31_000, 60_000, 0),
    complete('CommandBufferHelper::Finish', ts + 31_000, 60_000, 0),
    complete('CommandBufferProxyImpl::WaitForGetOffset', ts + 31_500, 59_000, 0),
  ];
}

describe('mainThreadTasks', () => {
  it('splits a frame into its commit, the GPU waits outside it, and its own CPU time', () => {
    const trace = { traceEvents: [mark('start', 1_000_000), ...frame(1_000_000)] };
    expect(mainThreadTasks(JSON.stringify(trace), 'start')).toEqual([
      { start: 0, duration: 100, commit: 75, gpuWait: 3, own: 22 },
    ]);
  });

  it('takes the thread of the mark, the tasks from the mark on and before `until`', () => {
    const trace = [
      ...frame(500_000),
      mark('start', 1_000_000),
      complete('RunTask', 1_000_000, 120_000, 110_000, OTHER),
      ...frame(1_200_000),
      complete('RunTask', 1_400_000, 80_000, 80_000),
      mark('stop', 1_450_000),
      complete('RunTask', 1_500_000, 60_000, 60_000),
    ];
    const tasks = mainThreadTasks(JSON.stringify(trace), 'start', 'stop');
    expect(tasks.map((task) => [task.start, task.duration, task.own])).toEqual([
      [200, 100, 22],
      [400, 80, 80],
    ]);
  });

  it('counts a task nested in another (a nested run loop) as part of the outer one', () => {
    const trace = [
      mark('start', 0),
      complete('RunTask', 0, 90_000, 90_000),
      complete('RunTask', 10_000, 30_000, 30_000),
    ];
    expect(mainThreadTasks(JSON.stringify(trace), 'start')).toEqual([
      { start: 0, duration: 90, commit: 0, gpuWait: 0, own: 90 },
    ]);
  });

  it('names a missing mark', () => {
    expect(() => mainThreadTasks('[]', 'start')).toThrow("the trace has no mark 'start'");
    expect(() => mainThreadTasks(JSON.stringify([mark('start', 0)]), 'start', 'stop')).toThrow(
      "the trace has no mark 'stop'",
    );
  });
});
