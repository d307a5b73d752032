// One process at a time on an embedded database (docs/game-model.md, "One process on PGlite"):
// PGlite is PostgreSQL in this process, with no server between it and its files, so two
// processes writing one VAR_DIR/db would corrupt it. The process that opens the directory takes
// a lock file beside it (`db.lock`: its pid, what it is, since when) and removes it when it closes
// the database (or exits); a process that finds the lock held refuses with one line naming the
// holder. A lock whose process is gone (a crash, a kill -9, a machine restarted) is stale: it is
// taken over. A process is the holder if its pid is alive and, where /proc tells it, it started
// when the lock says (a pid reused by another program after a restart is not the holder).
//
// The lock file is written whole under another name and linked into place (link(2) fails if the
// lock exists), so a reader never sees half of one.
import fs from 'node:fs';
import path from 'node:path';

export interface LockHolder {
  pid: number;
  /** What holds it, in words: 'the server', 'galaxy-cruise export'. */
  holder: string;
  since: string;
  /** The process's start time (/proc/<pid>/stat field 22), where Linux tells it. */
  started: string | null;
}

/** The error of a database another process holds: its message is the line the user reads. */
export class DatabaseInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly holding: LockHolder,
    asker: string,
  ) {
    const advice =
      holding.holder === 'the server'
        ? 'stop the server first, or set DATABASE_URL to a PostgreSQL database that both can use'
        : 'wait until it has finished';
    super(
      `the embedded database ${directory} is in use by ${holding.holder} (pid ${holding.pid}, since ${holding.since}); ` +
        `${asker === 'the server' ? 'the server cannot start: ' : ''}${advice}`,
    );
    this.name = 'DatabaseInUseError';
  }
}

/** The lock file of an embedded database directory: beside it, not in it (initdb wants it empty). */
export function lockFileOf(directory: string): string {
  return `${path.resolve(directory)}.lock`;
}

/** Linux's start time of a process, in clock ticks since boot; null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process the lock names still runs (and is the one that took it). */
function holds(lock: LockHolder): boolean {
  if (!Number.isInteger(lock.pid) || lock.pid <= 0 || !alive(lock.pid)) return false;
  const started = processStart(lock.pid);
  return lock.started === null || started === null || started === lock.started;
}

/** Locks held by this process, by lock file: a second open here is refused as another process's is. */
const heldHere = new Map<string, LockHolder>();

function readLock(file: string): LockHolder | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Unreadable or not ours: nobody can be holding it through this file.
    return { pid: 0, holder: 'unknown', since: '', started: null };
  }
}

function removeOwn(file: string): void {
  const lock = readLock(file);
  if (lock && lock.pid === process.pid) fs.rmSync(file, { force: true });
  heldHere.delete(file);
}

process.once('exit', () => {
  for (const file of [...heldHere.keys()]) removeOwn(file);
});

export interface DirectoryLock {
  readonly file: string;
  release(): void;
}

/**
 * Takes the lock of the embedded database `directory` for `holder` (what this process is, in
 * words), or throws DatabaseInUseError naming the process that holds it. A stale lock is taken over.
 */
export function lockDatabaseDirectory(directory: string, holder: string): DirectoryLock {
  const file = lockFileOf(directory);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const mine: LockHolder = {
    pid: process.pid,
    holder,
    since: new Date().toISOString(),
    started: processStart(process.pid),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const held = heldHere.get(file);
    if (held) throw new DatabaseInUseError(directory, held, holder);
    const staged = `${file}.${process.pid}.${attempt}`;
    fs.writeFileSync(staged, `${JSON.stringify(mine)}\n`);
    try {
      fs.linkSync(staged, file);
      heldHere.set(file, mine);
      return { file, release: () => removeOwn(file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(staged, { force: true });
    }
    const other = readLock(file);
    if (other && other.pid !== process.pid && holds(other)) throw new DatabaseInUseError(directory, other, holder);
    // Stale (its process is gone, or it was this pid's in an earlier life): taken over.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`the lock ${file} could not be taken`);
}
