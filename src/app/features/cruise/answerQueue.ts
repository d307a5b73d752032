// The answer queue: no answer is ever lost (application-spec §4 Submit; UI.md). An answer is
// written to the store (IndexedDB in the browser, answerStore.ts) before it is posted, posted
// one at a time in the order given, retried with exponential back-off while the network or the
// server is away, and deleted from the store only once the server has answered. Entries left
// in the store by an earlier page are sent again when the queue starts. Answering the same
// object of the same quest again replaces the queued entry (the server replaces its row too).
//
// The store and the transport are injected, so that the logic is tested without a browser.
import type { Answer, NewRecordResponse } from '../../../../shared/api';

export interface PendingAnswer {
  /** `${userId}:${questId}:${objectId}`: one entry per volunteer, quest and object. */
  key: string;
  userId: number;
  questId: number;
  answer: Answer;
  /**
   * Increases with every submit, across reloads (at least the submit's time in ms): the send
   * order, and a send deletes its entry only if no newer submit replaced it.
   */
  sequence: number;
}

export interface AnswerStore {
  all(): Promise<PendingAnswer[]>;
  put(entry: PendingAnswer): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A failed post: the HTTP status (0 when the network is away). */
export class PostError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown = undefined,
  ) {
    super(`answer post failed with status ${status}`);
    this.name = 'PostError';
  }
}

export type PostAnswer = (questId: number, answer: Answer) => Promise<NewRecordResponse>;

/**
 * Whether a failed post may succeed later: the network (0), a timeout, the rate limit, a lost
 * session that a new login brings back, or the server's own failure. Anything else (404: a new
 * game deleted the quest; 422: not a question of the quest) will fail the same way every time.
 */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

/** Back-off before retry `attempt` (1, 2, …): doubling from `initialMs`, capped at `maxMs`. */
export function backoffMs(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
}

export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AnswerQueueOptions {
  store: AnswerStore;
  post: PostAnswer;
  userId: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  scheduler?: Scheduler;
  /** The server has the answer. */
  onSent?: (entry: PendingAnswer, response: NewRecordResponse) => void;
  /** The server refused the answer for good (not retryable); it is dropped. */
  onRejected?: (entry: PendingAnswer, error: unknown) => void;
}

export const INITIAL_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 30_000;

export class AnswerQueue {
  private readonly entries = new Map<string, PendingAnswer>();
  private readonly listeners = new Set<() => void>();
  private readonly idleWaiters: (() => void)[] = [];
  private sequence = 0;
  private sending = false;
  private attempt = 0;
  private retryHandle: unknown = null;
  private snapshot: readonly PendingAnswer[] = [];
  private started: Promise<void> | null = null;
  private stopped = false;
  private readonly scheduler: Scheduler;

  constructor(private readonly options: AnswerQueueOptions) {
    this.scheduler = options.scheduler ?? {
      setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
      clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
  }

  /** Loads this volunteer's entries left by an earlier page and sends them. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const stored = await this.options.store.all();
      for (const entry of stored.filter((candidate) => candidate.userId === this.options.userId)) {
        const newer = this.entries.get(entry.key);
        if (!newer) this.entries.set(entry.key, entry);
        this.sequence = Math.max(this.sequence, entry.sequence);
      }
      this.changed();
      void this.pump();
    })();
    return this.started;
  }

  /**
   * Queues an answer: resolves once it is in the store (so a reload cannot lose it), before the
   * server has it. The post follows in the background.
   */
  async submit(questId: number, answer: Answer): Promise<void> {
    const key = `${this.options.userId}:${questId}:${answer.object_id}`;
    const entry: PendingAnswer = {
      key,
      userId: this.options.userId,
      questId,
      answer: { ...answer },
      sequence: (this.sequence = Math.max(this.sequence + 1, Date.now())),
    };
    await this.options.store.put(entry);
    this.entries.set(key, entry);
    this.changed();
    this.retryNow();
  }

  /** The answers the server does not have yet, oldest first. */
  pending(): readonly PendingAnswer[] {
    return this.snapshot;
  }

  /** Calls `listener` whenever the pending list changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once nothing is pending (at once when nothing is). */
  whenIdle(): Promise<void> {
    if (this.entries.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops the back-off wait and tries at once (the browser came back online, say). */
  retryNow(): void {
    if (this.retryHandle !== null) {
      this.scheduler.clearTimeout(this.retryHandle);
      this.retryHandle = null;
    }
    this.attempt = 0;
    void this.pump();
  }

  /** Stops retrying (the page is leaving or the volunteer logged out); the store keeps the rest. */
  stop(): void {
    if (this.retryHandle !== null) this.scheduler.clearTimeout(this.retryHandle);
    this.retryHandle = null;
    this.stopped = true;
  }

  private changed(): void {
    this.snapshot = [...this.entries.values()].sort((a, b) => a.sequence - b.sequence);
    for (const listener of this.listeners) listener();
    if (this.entries.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async pump(): Promise<void> {
    if (this.sending || this.stopped || this.retryHandle !== null) return;
    this.sending = true;
    try {
      for (;;) {
        const entry = this.snapshot[0];
        if (!entry || this.stopped) return;
        try {
          const response = await this.options.post(entry.questId, entry.answer);
          // Before the entry settles, so that what the answer earned is known to a caller whose
          // whenIdle() the settling resolves (the area's messages follow the answer's).
          this.options.onSent?.(entry, response);
          await this.settle(entry);
          this.attempt = 0;
        } catch (error) {
          const status = error instanceof PostError ? error.status : 0;
          if (!isRetryable(status)) {
            await this.settle(entry);
            this.options.onRejected?.(entry, error);
            continue;
          }
          this.attempt += 1;
          const wait = backoffMs(
            this.attempt,
            this.options.initialBackoffMs ?? INITIAL_BACKOFF_MS,
            this.options.maxBackoffMs ?? MAX_BACKOFF_MS,
          );
          this.retryHandle = this.scheduler.setTimeout(() => {
            this.retryHandle = null;
            void this.pump();
          }, wait);
          return;
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** Removes a sent entry unless a newer answer to the same object replaced it meanwhile. */
  private async settle(entry: PendingAnswer): Promise<void> {
    const current = this.entries.get(entry.key);
    if (current && current.sequence !== entry.sequence) return;
    await this.options.store.delete(entry.key);
    this.entries.delete(entry.key);
    this.changed();
  }
}
