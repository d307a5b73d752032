// A @fastify/rate-limit store in the database (table rate_limits): the counters live where every
// server process sees them, so several processes behind one proxy share each limit instead of
// each granting its own. One upsert per counted request; expired rows are swept now and then.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

const SWEEP_EVERY = 500;

/** Increments `key` in a fixed window of `timeWindow` ms; returns the count and the ms left. */
export async function incrementCounter(
  db: Kysely<Database>,
  key: string,
  timeWindow: number,
): Promise<{ current: number; ttl: number }> {
  // The window is measured by the database's clock, the one clock all processes share.
  const expires = sql<Date>`now() + ${timeWindow} * interval '1 millisecond'`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, expires_at: expires })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        count: sql`case when rate_limits.expires_at <= now() then 1 else rate_limits.count + 1 end`,
        expires_at: sql`case when rate_limits.expires_at <= now() then excluded.expires_at else rate_limits.expires_at end`,
      }),
    )
    .returning(['count', sql<number>`(extract(epoch from (expires_at - now())) * 1000)::float8`.as('ttl')])
    .executeTakeFirstOrThrow();
  return { current: row.count, ttl: Math.max(0, Math.round(row.ttl)) };
}

export function kyselyRateLimitStore(db: Kysely<Database>): FastifyRateLimitStoreCtor {
  let calls = 0;
  class KyselyRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      calls += 1;
      if (calls % SWEEP_EVERY === 0)
        void db
          .deleteFrom('rate_limits')
          .where('expires_at', '<', new Date())
          .execute()
          .catch(() => {
            // A failed sweep leaves rows for the next one; counting is unaffected.
          });
      incrementCounter(db, key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      // Keys carry their rule's name (rate-limits.ts), so one table serves every route.
      return this;
    }
  }
  return KyselyRateLimitStore;
}
