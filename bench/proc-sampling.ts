// Readings of Linux's /proc for the load bench: the CPU time and the run-queue wait of the server,
// of the database (the PostgreSQL postmaster and all its backends) and of the bench itself. Each
// reading is a running total; the bench takes one as its window opens and one as it closes.
import fs from 'node:fs';

/** utime + stime of a process in seconds, from /proc/PID/stat (proc(5)); 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The seconds a process's main thread spent runnable but waiting for a CPU: the second field of
 * /proc/PID/schedstat (nanoseconds on the run queue; Linux's Documentation/scheduler/sched-stats).
 * 0 when it is gone or the kernel keeps no such statistics.
 */
export function parseRunQueueWait(schedstat: string): number {
  const waitNs = Number(schedstat.trim().split(/\s+/)[1]);
  return Number.isFinite(waitNs) ? waitNs / 1e9 : 0;
}

function runQueueWaitSeconds(pid: number): number {
  try {
    return parseRunQueueWait(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8'));
  } catch {
    return 0;
  }
}

/** A process and all its children (the PostgreSQL postmaster and its backends), from /proc. */
function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent)!.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface SchedulerReadings {
  /** CPU seconds so far. */
  cpu: { server: number; database: number; bench: number };
  /** Run-queue seconds so far. */
  wait: { server: number; database: number; bench: number };
}

/**
 * CPU and run-queue seconds so far of the server, the database (all its processes; none when
 * `postmasterPid` is 0) and the bench. One walk of the process tree serves both readings.
 */
export function schedulerReadings(serverPid: number, postmasterPid: number): SchedulerReadings {
  const benchCpu = process.cpuUsage();
  const database = postmasterPid ? processTree(postmasterPid) : [];
  const sum = (read: (pid: number) => number) => database.reduce((total, pid) => total + read(pid), 0);
  return {
    cpu: {
      server: cpuSeconds(serverPid),
      database: sum(cpuSeconds),
      bench: (benchCpu.user + benchCpu.system) / 1e6,
    },
    wait: {
      server: runQueueWaitSeconds(serverPid),
      database: sum(runQueueWaitSeconds),
      bench: runQueueWaitSeconds(process.pid),
    },
  };
}
