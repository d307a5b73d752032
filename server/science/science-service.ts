// The science in the background of a serving process (docs/science.md): every REFRESH_MS the
// targets whose answers changed are summed again (./consensus.ts), and at most every
// ESTIMATE_MS, once the answers have grown by ESTIMATE_GROWTH since the last estimate, the
// volunteers' reliability is re-estimated (./reliability.ts). Both work in batches, one statement
// each, so the answer path keeps PGlite's one connection between them; neither runs twice at once.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema';
import { sumNewAnswers, vacuumScienceLog } from './consensus';
import { SERVING_PACE, analyzeScienceTables, estimateReliability } from './reliability';

export const REFRESH_MS = 1000;
/** On PGlite, the log's deleted rows are vacuumed away this often while answers come. */
export const VACUUM_LOG_MS = 60_000;
export const ESTIMATE_MS = 10 * 60_000;
/** A re-estimate waits for this share of new answers (or the first 100 of a new site). */
export const ESTIMATE_GROWTH = 0.05;

export class ScienceService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private lastEstimate = 0;
  /** The answers when the tables were last analysed (-1: not yet). */
  private analyzedAt = -1;
  private lastVacuum = 0;
  /** Targets summed since the log was last vacuumed. */
  private summedSinceVacuum = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { refreshMs?: number; estimateMs?: number; vacuumLog?: boolean } = {},
  ) {}

  start(): void {
    // The first estimate waits ESTIMATE_MS too: a server just started has its requests to answer
    // first, and the rates estimated before it stopped are still in the database.
    this.lastEstimate = Date.now();
    const tick = () => {
      this.running = this.step().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, this.options.refreshMs ?? REFRESH_MS).unref();
      });
    };
    this.timer = setTimeout(tick, this.options.refreshMs ?? REFRESH_MS).unref();
  }

  /** Stops the loop and waits for the step under way (its batch commits or rolls back whole). */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async step(): Promise<void> {
    try {
      const answers = await this.answers();
      // Statistics again whenever the answers grew by a fifth (./reliability.ts says why).
      if (this.analyzedAt < 0 || answers > this.analyzedAt * 1.2) {
        await analyzeScienceTables(this.db);
        this.analyzedAt = answers;
      }
      this.summedSinceVacuum += await sumNewAnswers(this.db);
      if (this.options.vacuumLog && this.summedSinceVacuum > 0 && Date.now() - this.lastVacuum >= VACUUM_LOG_MS) {
        await vacuumScienceLog(this.db);
        this.lastVacuum = Date.now();
        this.summedSinceVacuum = 0;
      }
      if (Date.now() - this.lastEstimate >= (this.options.estimateMs ?? ESTIMATE_MS) && (await this.grown(answers))) {
        this.lastEstimate = Date.now();
        const result = await estimateReliability(this.db, { pace: SERVING_PACE });
        this.log.info(result, 'volunteer reliability re-estimated');
      }
    } catch (error) {
      this.log.error({ err: error }, 'science step failed');
    }
  }

  private async answers(): Promise<number> {
    const total = await this.db
      .selectFrom('course_answer_counts')
      .select((eb) => eb.fn.sum<number>('answers_count').as('answers'))
      .executeTakeFirstOrThrow();
    return Number(total.answers ?? 0);
  }

  private async grown(answers: number): Promise<boolean> {
    const state = await this.db
      .selectFrom('science_state')
      .select('answers_at_estimate')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const before = Number(state.answers_at_estimate);
    return answers >= Math.max(100, before * (1 + ESTIMATE_GROWTH)) && answers > before;
  }
}
