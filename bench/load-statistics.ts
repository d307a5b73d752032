// PostgreSQL's own view of a load window: what its connections were doing (pg_stat_activity,
// sampled) and which statements took its time (pg_stat_statements, with --statements). PGlite and
// the peer without a database have neither.
import pg from 'pg';

/** pg_stat_statements, with planning time too: how --statements asks PostgreSQL to count. */
export const STATEMENT_STATISTICS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.track_planning': 'on',
};

/** Between two samples of pg_stat_activity. */
const ACTIVITY_SAMPLE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * 'reset' empties pg_stat_statements when the window opens; 'read' lists the ten statements of the
 * bench database that took the most planning and execution time since, as 'calls, plans,
 * planning and execution ms, mean: query' lines.
 */
export async function topStatements(databaseUrl: string, action: 'reset' | 'read'): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (action === 'reset') {
      await client.query('create extension if not exists pg_stat_statements');
      await client.query('select pg_stat_statements_reset()');
      return [];
    }
    const { rows } = await client.query<{
      calls: string;
      plans: string;
      plan_ms: number;
      exec_ms: number;
      query: string;
    }>(
      `select calls, plans, total_plan_time as plan_ms, total_exec_time as exec_ms,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query
         from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
        order by total_plan_time + total_exec_time desc limit 10`,
    );
    return rows.map(
      (row) =>
        `${row.calls} calls, ${row.plans} plans, ${row.plan_ms.toFixed(0)} + ${row.exec_ms.toFixed(0)} ms ` +
        `(${(row.exec_ms / Math.max(1, Number(row.calls))).toFixed(3)} ms a call): ${row.query}`,
    );
  } finally {
    await client.end();
  }
}

/**
 * Connects a sampler of the bench database's pg_stat_activity before the load, so that nothing
 * is started in the bench's process as the window opens (as with the disk flush probe). The
 * function it returns samples from `start` until `end` (performance.now() times) and answers the
 * ten most frequent 'state wait_event: query' lines, each with the average number of connections
 * in it.
 */
export async function openActivitySampler(
  databaseUrl: string,
): Promise<(start: number, end: number) => Promise<string[]>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return (start, end) => sampleActivity(client, start, end);
}

async function sampleActivity(client: pg.Client, start: number, end: number): Promise<string[]> {
  const counts = new Map<string, number>();
  let samples = 0;
  try {
    await sleep(start - performance.now());
    while (performance.now() < end) {
      const { rows } = await client.query<{ state: string; wait: string | null; query: string }>(
        `select state, wait_event_type || '/' || wait_event as wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as query
           from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      samples++;
      for (const row of rows) {
        const key = `${row.state}${row.wait ? ` ${row.wait}` : ''}: ${row.query}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      // Each sample is a query the measured database answers: sampled sparsely, so that the
      // sampler takes little of its time, and still often enough for a window of seconds.
      await sleep(ACTIVITY_SAMPLE_MS);
    }
  } finally {
    await client.end();
  }
  // Average number of connections in each state, as a share of the samples.
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([key, count]) => `${(count / samples).toFixed(2)} ${key}`);
}
