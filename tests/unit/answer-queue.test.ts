// The answer queue (application-spec §4 Submit; UI.md: never lose an answer): stored before it
// is posted, retried with back-off while the network or the server is away, sent again from the
// store after a reload, replaced by a newer answer to the same object, dropped only when the
// server refuses it for good. The store and the transport are in-memory fakes.
import { describe, expect, it } from 'vitest';
import type { Answer, NewRecordResponse } from '../../shared/api';
import {
  AnswerQueue,
  PostError,
  backoffMs,
  isRetryable,
  type AnswerStore,
  type PendingAnswer,
  type Scheduler,
} from '../../src/app/features/cruise/answerQueue';

class MemoryStore implements AnswerStore {
  readonly rows = new Map<string, PendingAnswer>();
  readonly log: string[] = [];
  async all() {
    return [...this.rows.values()].map((row) => structuredClone(row));
  }
  async put(entry: PendingAnswer) {
    this.log.push(`put ${entry.key}`);
    this.rows.set(entry.key, structuredClone(entry));
  }
  async delete(key: string) {
    this.log.push(`delete ${key}`);
    this.rows.delete(key);
  }
}

/** A scheduler whose timers run only when the test says so. */
class ManualScheduler implements Scheduler {
  timers = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number) {
    const id = this.next++;
    this.timers.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown) {
    this.timers.delete(handle as number);
  }
  delays(): number[] {
    return [...this.timers.values()].map((timer) => timer.ms);
  }
  runAll() {
    const timers = [...this.timers.values()];
    this.timers.clear();
    for (const timer of timers) timer.callback();
  }
}

const RESPONSE: NewRecordResponse = { campaigns: [], new_record: false, answers_count: 1 };

function answer(objectId: number, galaxyType: Answer['galaxy_type'] = 'spiral'): Answer {
  return {
    object_id: objectId,
    galaxy_type: galaxyType,
    interaction: 'no',
    ring: false,
    fan: false,
    tail: false,
    distorted: false,
  };
}

/** A server that is down while `up` is false; it records what it received. */
function server() {
  const state = {
    up: true,
    status: 0,
    received: [] as { questId: number; answer: Answer }[],
    post: async (questId: number, posted: Answer) => {
      if (!state.up) throw new PostError(state.status);
      state.received.push({ questId, answer: posted });
      return RESPONSE;
    },
  };
  return state;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('answer queue', () => {
  it('writes an answer to the store before it is posted, and deletes it once the server has it', async () => {
    const store = new MemoryStore();
    const remote = server();
    const order: string[] = [];
    const queue = new AnswerQueue({
      store,
      userId: 7,
      post: async (questId, posted) => {
        order.push(`post ${store.rows.has(`7:1:${posted.object_id}`) ? 'stored' : 'not stored'}`);
        return remote.post(questId, posted);
      },
    });
    await queue.start();
    await queue.submit(1, answer(101));
    await queue.whenIdle();
    expect(order).toEqual(['post stored']);
    expect(store.log).toEqual(['put 7:1:101', 'delete 7:1:101']);
    expect(remote.received).toEqual([{ questId: 1, answer: answer(101) }]);
    expect(queue.pending()).toEqual([]);
  });

  it('tells what the server said of an answer before whenIdle() resolves, so its rewards come before the area’s messages', async () => {
    const events: string[] = [];
    const queue = new AnswerQueue({
      store: new MemoryStore(),
      userId: 7,
      post: server().post,
      onSent: (entry, response) => events.push(`sent ${entry.answer.object_id}: ${response.answers_count}`),
    });
    await queue.start();
    await queue.submit(1, answer(101));
    await queue.whenIdle();
    events.push('idle');
    expect(events).toEqual(['sent 101: 1', 'idle']);
  });

  it('keeps the answer pending and retries with doubling back-off while the network is away', async () => {
    const store = new MemoryStore();
    const remote = server();
    remote.up = false;
    const scheduler = new ManualScheduler();
    const queue = new AnswerQueue({
      store,
      userId: 7,
      post: remote.post,
      scheduler,
      initialBackoffMs: 1000,
      maxBackoffMs: 4000,
    });
    await queue.start();
    await queue.submit(1, answer(101));
    await settle();
    expect(queue.pending().map((entry) => entry.answer.object_id)).toEqual([101]);
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      delays.push(...scheduler.delays());
      scheduler.runAll();
      await settle();
    }
    expect(delays).toEqual([1000, 2000, 4000, 4000]);
    expect(store.rows.has('7:1:101')).toBe(true);
    remote.up = true;
    scheduler.runAll();
    await queue.whenIdle();
    expect(remote.received).toHaveLength(1);
    expect(store.rows.size).toBe(0);
  });

  it('retries at once when asked (the browser is back online), without waiting for the back-off', async () => {
    const remote = server();
    remote.up = false;
    const scheduler = new ManualScheduler();
    const queue = new AnswerQueue({ store: new MemoryStore(), userId: 7, post: remote.post, scheduler });
    await queue.start();
    await queue.submit(1, answer(101));
    await settle();
    expect(scheduler.timers.size).toBe(1);
    remote.up = true;
    queue.retryNow();
    await queue.whenIdle();
    expect(scheduler.timers.size).toBe(0);
    expect(remote.received).toHaveLength(1);
  });

  it('sends again after a reload what an earlier page left in the store, each answer once', async () => {
    const store = new MemoryStore();
    const remote = server();
    remote.up = false;
    const first = new AnswerQueue({ store, userId: 7, post: remote.post, scheduler: new ManualScheduler() });
    await first.start();
    await first.submit(1, answer(101));
    await first.submit(1, answer(102));
    first.stop();

    remote.up = true;
    const reloaded = new AnswerQueue({ store, userId: 7, post: remote.post });
    await reloaded.start();
    await reloaded.whenIdle();
    expect(remote.received.map((row) => row.answer.object_id)).toEqual([101, 102]);
    expect(store.rows.size).toBe(0);
  });

  it("leaves another volunteer's stored answers alone", async () => {
    const store = new MemoryStore();
    await store.put({ key: '8:1:101', userId: 8, questId: 1, answer: answer(101), sequence: 1 });
    const remote = server();
    const queue = new AnswerQueue({ store, userId: 7, post: remote.post });
    await queue.start();
    await queue.whenIdle();
    expect(remote.received).toEqual([]);
    expect(store.rows.has('8:1:101')).toBe(true);
  });

  it('replaces a queued answer by a newer answer to the same object: only the newer one is sent', async () => {
    const store = new MemoryStore();
    const remote = server();
    remote.up = false;
    const scheduler = new ManualScheduler();
    const queue = new AnswerQueue({ store, userId: 7, post: remote.post, scheduler });
    await queue.start();
    await queue.submit(1, answer(101, 'spiral'));
    await settle();
    await queue.submit(1, answer(101, 'elliptical'));
    remote.up = true;
    queue.retryNow();
    await queue.whenIdle();
    expect(remote.received.map((row) => row.answer.galaxy_type)).toEqual(['elliptical']);
  });

  it('sends a newer answer given while the older one was in flight, after it', async () => {
    const store = new MemoryStore();
    const received: string[] = [];
    let release: () => void = () => {};
    const queue = new AnswerQueue({
      store,
      userId: 7,
      post: async (_questId, posted) => {
        if (received.length === 0) await new Promise<void>((resolve) => (release = resolve));
        received.push(posted.galaxy_type);
        return RESPONSE;
      },
    });
    await queue.start();
    await queue.submit(1, answer(101, 'spiral'));
    await settle();
    await queue.submit(1, answer(101, 'elliptical'));
    release();
    await queue.whenIdle();
    expect(received).toEqual(['spiral', 'elliptical']);
    expect(store.rows.size).toBe(0);
  });

  it('drops an answer the server refuses for good and reports it; the next one still goes', async () => {
    const store = new MemoryStore();
    const rejected: number[] = [];
    const received: number[] = [];
    const queue = new AnswerQueue({
      store,
      userId: 7,
      post: async (_questId, posted) => {
        if (posted.object_id === 101) throw new PostError(404);
        received.push(posted.object_id);
        return RESPONSE;
      },
      onRejected: (entry) => rejected.push(entry.answer.object_id),
    });
    await queue.start();
    await queue.submit(1, answer(101));
    await queue.submit(1, answer(102));
    await queue.whenIdle();
    expect(rejected).toEqual([101]);
    expect(received).toEqual([102]);
    expect(store.rows.size).toBe(0);
  });

  it('tells its listeners when the pending list changes', async () => {
    const remote = server();
    const queue = new AnswerQueue({ store: new MemoryStore(), userId: 7, post: remote.post });
    const sizes: number[] = [];
    queue.subscribe(() => sizes.push(queue.pending().length));
    await queue.start();
    await queue.submit(1, answer(101));
    await queue.whenIdle();
    expect(sizes).toEqual([0, 1, 0]);
  });
});

describe('retry rules', () => {
  it('retries the network, timeouts, the rate limit, a lost session and server failures, nothing else', () => {
    expect([0, 401, 408, 429, 500, 502, 503].every(isRetryable)).toBe(true);
    expect([400, 403, 404, 409, 422].some(isRetryable)).toBe(false);
  });

  it('doubles the back-off from its initial value up to its cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffMs(attempt, 1000, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });
});
