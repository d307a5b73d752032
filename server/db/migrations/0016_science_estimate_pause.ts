// The reliability estimate reads every answer and writes every target's sums back
// (server/science/reliability.ts). While it runs, the answers it has read must not also be added
// to their targets from the log (server/science/consensus.ts sumNewAnswers), or they would count
// twice: science_state.estimate_started_at marks an estimate under way (at most one at a time,
// across processes), and the log waits until it ends. A mark older than the estimate could take
// (a process that died meanwhile) is ignored.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table science_state add column estimate_started_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table science_state drop column estimate_started_at`.execute(db);
}
