// `galaxy-cruise bench science`: the science (docs/science.md) on a simulated crowd
// (./science-crowd.ts) at a project's scale, on PGlite (on disk) and on a throw-away PostgreSQL:
//   - at each scale (`targets × votes` answers), `galaxy-cruise science estimate` as the real
//     command, its time and peak memory, the weighted consensus's accuracy beside the raw
//     majority's, the share of volunteers whose measured rates lie within three standard errors
//     of the simulated ones, and the answer POST's median while an estimate runs beside it
//     (./science-scale.ts);
//   - retirement: for the manifest's example rule and its neighbours, the classifications each
//     saves against a campaign without a rule at equal accuracy, and whether it loses accuracy
//     (PGlite, two crowds of `retirementTargets` targets);
//   - the crowd of 30 through the HTTP API (./science-voyage.ts) on a course of `voyageTargets`:
//     the classifications it takes with the retirement rule, arriving all at once and one after
//     another, against the crowd without a rule, and the consensus's accuracy in each (PGlite);
//   - the catalogue of `exportRows` targets exported in each format (FITS, CSV, VOTable), streamed,
//     and the process's resident memory meanwhile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';
import { startTemporaryPostgres } from '../server/db/temporary-postgres';
import { sumNewAnswers } from '../server/science/consensus';
import { BLOCK_ROWS } from '../server/science/catalogue-rows';
import { EXPORT_FORMATS, exportCatalogue, ruleText } from '../server/science/export';
import { estimateReliability } from '../server/science/reliability';
import { EXAMPLE_RETIREMENT } from '../skydata/import/manifest';
import { formatColumns } from './harness';
import { createPostgresDatabase } from './load-database';
import { onInterrupt } from './load-server';
import {
  accuracyLost,
  retirementSaving,
  runCampaign,
  seedCrowd,
  wrongTargetChanges,
  type CampaignOutcome,
  type CrowdAccuracy,
  type RetirementRule,
} from './science-crowd';
import { estimateAtScale } from './science-scale';
import { ARRIVALS, VOYAGE_RULE, runVoyage, type VoyageRun } from './science-voyage';

export type ScienceDatabase = 'pglite' | 'postgres';

export interface ScienceOptions {
  databases: ScienceDatabase[];
  /** The crowds the estimate is timed on. */
  scales: { targets: number; votes: number; volunteers: number }[];
  /** Seconds of answer posts timed without an estimate, then as long as one runs (0: none). */
  postSeconds: number;
  /** The targets of each crowd the retirement rules are compared on (0: none). */
  retirementTargets: number;
  /** The course the crowd of 30 sails through the API (0: none). */
  voyageTargets: number;
  exportRows: number;
  log(line: string): void;
}

/**
 * Every target's votes in the campaign without a rule, and the most a rule's campaign gives one:
 * the example rule's max_volunteers, so that a target the rule never retires gets as many votes
 * as without it.
 */
export const RETIREMENT_VOTES = EXAMPLE_RETIREMENT.max_volunteers;

/** The crowds (seeds of seedCrowd) each rule is held against the campaign without a rule on. */
export const RETIREMENT_SEEDS = [5, 6];

/**
 * The rules the retirement run compares: the manifest's example (the default a research group
 * copies) first, then its neighbours, less sure or sooner, so that the run shows why it is the
 * one.
 */
export const RETIREMENT_RULES: RetirementRule[] = [
  EXAMPLE_RETIREMENT,
  { min_volunteers: 5, min_confidence: 0.9, max_volunteers: RETIREMENT_VOTES },
  { min_volunteers: 3, min_confidence: 0.99, max_volunteers: RETIREMENT_VOTES },
  { min_volunteers: 5, min_confidence: 0.99, max_volunteers: RETIREMENT_VOTES },
  { min_volunteers: 3, min_confidence: 0.999, max_volunteers: RETIREMENT_VOTES },
];

export interface ScienceRow {
  suite: 'science';
  database: ScienceDatabase;
  measure: string;
  value: string;
}

async function openBenchDatabase(database: ScienceDatabase, directory: string, postgresUrl?: string) {
  const databaseUrl = database === 'postgres' ? await createPostgresDatabase(postgresUrl!, directory) : undefined;
  const handle = await openDatabase({ databaseUrl, directory });
  await migrateToLatest(handle.db);
  return handle.db;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percent = (share: number) => `${(share * 100).toFixed(2)} %`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/** A rule in words, as the catalogue's provenance says it. */
const ruleWords = (rule: RetirementRule) =>
  ruleText({ min: rule.min_volunteers, confidence: rule.min_confidence, max: rule.max_volunteers });

/** wrongTargetChanges in words. */
function changesText(campaigns: Parameters<typeof wrongTargetChanges>[0]) {
  const { galaxyType, interaction } = wrongTargetChanges(campaigns);
  return `galaxy_type ${galaxyType.worse}, ${galaxyType.better}; interaction ${interaction.worse}, ${interaction.better}`;
}

/** The consensus's accuracy on both questions. */
const accuracyText = (accuracy: CrowdAccuracy) =>
  `galaxy_type ${percent(accuracy.weighted)}, interaction ${percent(accuracy.weightedInteraction)}`;

/**
 * Each rule of RETIREMENT_RULES against the campaign without a rule (RETIREMENT_VOTES votes a
 * target) on each crowd of RETIREMENT_SEEDS: the classifications and accuracy of each, the
 * classifications the campaign without a rule needed to reach the rule's accuracy (the baseline
 * at equal accuracy, retirementSaving) and the saving against it, and the targets the rule got
 * wrong that were right without it and the reverse; then for each rule its saving on its worse
 * crowd and whether it lost accuracy over both (accuracyLost).
 */
async function retirement(open: () => Promise<Kysely<Database>>, options: ScienceOptions) {
  const campaign = async (seed: number, rule?: RetirementRule) => {
    const db = await open();
    try {
      const crowd = await seedCrowd(db, { targets: options.retirementTargets, volunteers: 200, seed });
      return await runCampaign(
        db,
        crowd,
        { votes: RETIREMENT_VOTES, rule, curve: rule === undefined },
        estimateReliability,
        (database) => sumNewAnswers(database),
      );
    } finally {
      await db.destroy();
    }
  };
  const rows: [string, string][] = [];
  // Each rule's campaigns beside the campaign without a rule on the same crowd, and its least
  // saving over the crowds (a bound when the campaign without a rule never reached it).
  const results = RETIREMENT_RULES.map(() => ({
    campaigns: [] as { without: CampaignOutcome; withRule: CampaignOutcome }[],
    saving: Infinity,
    bound: false,
  }));
  for (const seed of RETIREMENT_SEEDS) {
    const without = await campaign(seed);
    const crowdName = `retirement, crowd ${seed}`;
    rows.push([
      `${crowdName}, without a rule (${RETIREMENT_VOTES} votes): classifications, accuracy`,
      `${without.classifications}, ${accuracyText(without.accuracy)}`,
    ]);
    for (const [index, rule] of RETIREMENT_RULES.entries()) {
      const withRule = await campaign(seed, rule);
      const saving = retirementSaving(without, withRule);
      const result = results[index]!;
      result.campaigns.push({ without, withRule });
      // Not reached within the campaign: the baseline is more than all its classifications, so
      // the saving is more than the one against them.
      const least = saving?.saving ?? 1 - withRule.classifications / without.classifications;
      if (least < result.saving) Object.assign(result, { saving: least, bound: saving === undefined });
      const name = `${crowdName}, ${ruleWords(rule)}`;
      rows.push(
        [
          `${name}: classifications, accuracy, retired`,
          `${withRule.classifications}, ${accuracyText(withRule.accuracy)}, ${withRule.retired}`,
        ],
        [
          `${name}: without a rule to the same accuracy, saved`,
          saving
            ? `${saving.classifications} (${saving.votes} votes a target), ${percent(saving.saving)}`
            : `more than ${without.classifications} (not within ${RETIREMENT_VOTES} votes), more than ${percent(least)}`,
        ],
        [`${name}: targets wrong only with the rule, only without`, changesText([{ without, withRule }])],
      );
      options.log(`science: ${name}: ${withRule.classifications} classifications`);
    }
  }
  for (const [index, rule] of RETIREMENT_RULES.entries()) {
    const result = results[index]!;
    const example = rule === EXAMPLE_RETIREMENT ? " (the manifest's example)" : '';
    rows.push([
      `retirement, ${ruleWords(rule)}${example}: saved on the worse crowd; targets wrong only with the rule, only without; accuracy lost`,
      `${result.bound ? 'more than ' : ''}${percent(result.saving)}; ${changesText(result.campaigns)}; ${
        accuracyLost(result.campaigns) ? 'yes' : 'no'
      }`,
    ]);
  }
  return rows;
}

/** The crowd of 30 through the API: without a rule, then with it in both arrivals. */
async function voyages(open: () => Promise<Kysely<Database>>, options: ScienceOptions) {
  const run = async (rule: typeof VOYAGE_RULE | null, arrival: (typeof ARRIVALS)[number]) => {
    const db = await open();
    try {
      return await runVoyage(db, { rule, arrival, targets: options.voyageTargets });
    } finally {
      await db.destroy();
    }
  };
  const describe = (outcome: VoyageRun) =>
    `${outcome.outcome.answers}, galaxy_type ${percent(outcome.accuracy.galaxyType)}, interaction ${percent(
      outcome.accuracy.interaction,
    )}, 5xx ${outcome.outcome.serverErrors}`;
  const without = await run(null, 'in-step');
  const rows: [string, string][] = [
    [
      `crowd of 30 through the API, ${options.voyageTargets} targets, rule`,
      `≥ ${VOYAGE_RULE.min_volunteers} volunteers, confidence ≥ ${VOYAGE_RULE.min_confidence}`,
    ],
    ['without a rule: classifications, accuracy', describe(without)],
  ];
  for (const arrival of ARRIVALS) {
    const withRule = await run(VOYAGE_RULE, arrival);
    rows.push([`${arrival}: classifications, accuracy`, describe(withRule)]);
    rows.push([
      `${arrival}: classifications saved, volunteers told no galaxy is left`,
      `${percent(1 - withRule.outcome.answers / without.outcome.answers)}, ${withRule.outcome.noGalaxyLeft}`,
    ]);
  }
  return rows;
}

/**
 * The catalogue of `exportRows` targets exported in each format to nowhere, with the resident
 * memory sampled: its peak in each quarter of the rows shows whether the export's memory grows
 * with the rows or stays flat. The chunks after the first (the header) are blocks of rows.
 */
async function exportMemory(db: Kysely<Database>, options: ScienceOptions) {
  const [crowd] = await timed(() => seedCrowd(db, { targets: options.exportRows, volunteers: 1, seed: 9 }));
  await sql`analyze targets`.execute(db);
  const blocks = Math.ceil(options.exportRows / BLOCK_ROWS);
  const mb = (value: number) => `${(value / 2 ** 20).toFixed(0)} MB`;
  const rows: [string, string][] = [];
  for (const format of EXPORT_FORMATS) {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    const quarters = [baseline, baseline, baseline, baseline];
    let bytes = 0;
    let chunks = 0;
    const quarter = () => Math.min(3, Math.floor((Math.max(0, chunks - 1) / blocks) * 4));
    const sampler = setInterval(() => {
      const index = quarter();
      quarters[index] = Math.max(quarters[index]!, process.memoryUsage().rss);
    }, 50);
    const [, ms] = await timed(() =>
      pipeline(
        Readable.from(exportCatalogue(db, crowd.courseId, format)),
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            chunks += 1;
            done();
          },
        }),
      ),
    );
    clearInterval(sampler);
    rows.push(
      [`${format} export of ${options.exportRows} rows`, `${seconds(ms)}, ${mb(bytes)}`],
      [`${format}: resident memory before`, mb(baseline)],
      [`${format}: peak resident memory per quarter of the rows`, quarters.map(mb).join(', ')],
    );
    options.log(`science: ${format} export of ${options.exportRows} rows in ${seconds(ms)}, ${mb(bytes)}`);
  }
  return rows;
}

export async function runScience(options: ScienceOptions): Promise<ScienceRow[]> {
  const rows: ScienceRow[] = [];
  const push = (database: ScienceDatabase, entries: [string, string][]) =>
    rows.push(...entries.map(([measure, value]) => ({ suite: 'science' as const, database, measure, value })));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'galaxy-cruise-science-bench-'));
  try {
    for (const database of options.databases) {
      const postgres = database === 'postgres' ? await startTemporaryPostgres() : undefined;
      const forget = postgres ? onInterrupt(() => postgres.stop()) : () => false;
      let count = 0;
      const open = () => openBenchDatabase(database, path.join(scratch, `${database}-${(count += 1)}`), postgres?.url);
      try {
        for (const scale of options.scales) {
          const varDirectory = path.join(scratch, `${database}-${(count += 1)}`);
          const databaseUrl =
            database === 'postgres' ? await createPostgresDatabase(postgres!.url, varDirectory) : undefined;
          push(
            database,
            await estimateAtScale(
              { varDirectory, databaseUrl },
              { ...scale, postSeconds: options.postSeconds, log: options.log },
            ),
          );
          if (!databaseUrl) fs.rmSync(varDirectory, { recursive: true, force: true });
        }
        if (database === 'pglite' && options.retirementTargets > 0) push(database, await retirement(open, options));
        if (database === 'pglite' && options.voyageTargets > 0) push(database, await voyages(open, options));
        if (options.exportRows > 0) {
          const exportDb = await open();
          try {
            push(database, await exportMemory(exportDb, options));
          } finally {
            await exportDb.destroy();
          }
        }
      } finally {
        await postgres?.stop();
        forget();
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}

export function formatScienceTable(rows: ScienceRow[]): string {
  return formatColumns(
    ['database', 'measure', 'value'],
    rows.map((row) => [row.database, row.measure, row.value]),
  );
}
