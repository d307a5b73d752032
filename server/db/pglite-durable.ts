// Durable commits for PGlite on disk (NodeFS).
//
// What PGlite 0.5 does by default: it starts Postgres with -F (fsync off), and Emscripten's NODEFS
// has no fsync at all (fsync() and fdatasync() are no-ops). Writes do go through fs.writeSync, so
// a committed transaction is in the kernel's page cache before the query returns: it survives the
// server process being killed (SIGKILL), but not a power cut or a kernel crash, and a checkpoint
// may then leave pg_control pointing at WAL that never reached the disk. relaxedDurability only
// concerns file systems that copy an in-memory image out (IndexedDB, OPFS); NodeFS ignores it.
//
// What this does: Postgres runs with fsync on and wal_sync_method=fsync, and NODEFS gets a real
// fsync, so every sync Postgres asks for happens, in its order — with one change that keeps the
// throughput of group commit: a sync of a WAL segment (the one a COMMIT asks for) is deferred,
// and the driver waits for it after handing the connection to the next transaction
// (`barrier()`): commits that arrive while one fsync runs share the next one, and no response
// acknowledges a commit before its WAL is on disk. Any other sync (checkpoints: data files,
// pg_control, directories) first flushes the deferred WAL synchronously, so Postgres's ordering
// ("the WAL is durable before the checkpoint that relies on it") holds exactly.
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

interface EmscriptenStream {
  node: unknown;
}

interface EmscriptenModule {
  NODEFS: {
    realPath(node: unknown): string;
    stream_ops: { fsync?: (stream: EmscriptenStream) => number };
  };
}

export class WalDurability {
  /** WAL files written since their last fsync was asked for, not yet synced. */
  private readonly pending = new Set<string>();
  /** Taken by the flush that is running, until it finishes. */
  private inFlight = new Set<string>();
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** WAL fsyncs Postgres asked for: a driver that sees this change while it holds the connection wrote WAL. */
  requests = 0;
  /** The value of `requests` up to which every WAL sync is known done on the host. */
  durableRequests = 0;
  /** fsync calls made on the host (for the durability test and the logs). */
  walSyncs = 0;
  otherSyncs = 0;

  /** Called by Postgres's fsync() through NODEFS. */
  fsync(file: string): void {
    if (file.includes(`${path.sep}pg_wal${path.sep}`)) {
      this.requests += 1;
      this.pending.add(file);
      return;
    }
    this.flushSync();
    syncPathSync(file);
    this.otherSyncs += 1;
  }

  /** Every deferred WAL sync, now and synchronously (before a sync that depends on them). */
  private flushSync(): void {
    const covered = this.requests;
    for (const file of [...this.inFlight, ...this.pending]) {
      syncPathSync(file);
      this.walSyncs += 1;
    }
    this.pending.clear();
    this.durableRequests = Math.max(this.durableRequests, covered);
  }

  /**
   * Resolves when every WAL write made so far is on disk. A flush that is already running may
   * have started before those writes, so callers then wait for the next one, which all of them
   * share (group commit).
   */
  barrier(): Promise<void> {
    if (this.pending.size === 0) return this.running ?? Promise.resolve();
    if (!this.running) return this.start();
    this.queued ??= this.running.then(
      () => this.start(),
      () => this.start(),
    );
    return this.queued;
  }

  private start(): Promise<void> {
    this.queued = undefined;
    this.inFlight = new Set(this.pending);
    this.pending.clear();
    const run = this.syncFiles([...this.inFlight], this.requests);
    this.running = run;
    // Registered before any caller's await, so a queued flush sees this one finished.
    run
      .finally(() => {
        this.inFlight = new Set();
        if (this.running === run) this.running = undefined;
      })
      .catch(() => {});
    return run;
  }

  private async syncFiles(files: string[], covered: number): Promise<void> {
    try {
      await Promise.all(files.map((file) => syncPath(file)));
      this.walSyncs += files.length;
      this.durableRequests = Math.max(this.durableRequests, covered);
    } catch (error) {
      // Not synced: they stay pending, and the commit that waited reports the failure.
      for (const file of files) this.pending.add(file);
      throw error;
    }
  }
}

function syncPathSync(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    // A WAL segment recycled or removed since it was written has nothing left to sync.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function syncPath(file: string): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** NodeFS whose fsync reaches the host file system through `durability`. */
class DurableNodeFS extends NodeFS {
  constructor(
    directory: string,
    private readonly durability: WalDurability,
  ) {
    super(directory);
  }

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const durability = this.durability;
    const installFsync = (module: unknown) => {
      const nodefs = (module as EmscriptenModule).NODEFS;
      nodefs.stream_ops.fsync = (stream) => {
        durability.fsync(nodefs.realPath(stream.node));
        return 0;
      };
    };
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        preRun: [...(emscriptenOpts.preRun ?? []), installFsync],
      } as typeof emscriptenOpts,
    };
  }
}

/** Postgres's start parameters: PGlite's defaults without -F (fsync off), WAL synced with fsync(). */
export function durableStartParams(defaults: readonly string[]): string[] {
  return [...defaults.filter((parameter) => parameter !== '-F'), '-c', 'fsync=on', '-c', 'wal_sync_method=fsync'];
}

export function durableFilesystem(directory: string, durability: WalDurability) {
  return new DurableNodeFS(directory, durability);
}
