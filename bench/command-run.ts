// `galaxy-cruise <command>` run as a user runs it, timed from its start to its exit, with its
// peak resident memory read from /proc (VmHWM, sampled every 20 ms until it exits): the figures
// a research group's machine sees. The import and science benches time their commands so.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config';
import { onInterrupt } from './load-server';

// From the project's root, whether this file runs from the Node build or from the sources.
const bin = path.join(projectRoot, 'bin', 'galaxy-cruise.mjs');

/** The peak resident memory so far of a process, bytes (0 once it is gone). */
export function peakResident(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return kib ? Number(kib[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** User and system CPU seconds of a process and its threads so far (/proc/PID/stat), or 0. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface CommandRun {
  ms: number;
  /** CPU seconds (user and system, all threads) until its last sample: less skewed by a busy machine. */
  cpu: number;
  /** Peak resident memory, bytes. */
  peak: number;
  stdout: string;
}

/** Runs `galaxy-cruise ...args` with `env`; throws with its standard error when it fails. */
export async function runCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peak = 0;
  let cpu = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, peakResident(child.pid!));
    cpu = Math.max(cpu, cpuSeconds(child.pid!));
  }, 20);
  const forget = onInterrupt(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearInterval(sampler);
  forget();
  if (code !== 0) throw new Error(`galaxy-cruise ${args.join(' ')} exited with ${code}: ${stderr}`);
  return { ms: performance.now() - started, cpu, peak, stdout };
}
