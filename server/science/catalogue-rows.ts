// The galaxy catalogue of a course (docs/science.md): one row per target that was ever in the
// course (a target a later import left out stays, marked removed, with its answers), with the
// research group's own id and name for an imported course, its counts, its raw and weighted vote
// fractions, its consensus and confidence, whether it is retired, and the catalogue's truth.
//
// Read a block of targets at a time in object_id order (keyset), as columns: one COPY statement
// (../db/bulk-copy.ts) gives each target's sums as target_consensus keeps them, and the fractions,
// probabilities and labels are derived here into typed arrays (the formulas the SQL had: a raw
// fraction is a count over the votes of its question, a weighted one a weight over the weight of
// its question, the features among the yes answers; P = consensus_probability(evidence, prior)).
// An export of a million targets never holds more than a block, and builds no object per row.
import { sql, type Kysely } from 'kysely';
import { withBulkSession } from '../db/bulk-copy';
import { CopyBinaryReader } from '../db/copy-binary';
import type { Database } from '../db/schema';
import type { ColumnBlock } from './formats/table-writer';
import { VOTES, type VoteColumns } from '../db/vote-columns';

/** A row of the catalogue: its counts and vote fractions are VoteColumns (../db/vote-columns.ts). */
export interface CatalogueRow extends VoteColumns {
  object_id: number;
  /** An imported course's own target id and name (imported_targets); null for the five courses. */
  id: number | null;
  name: string | null;
  ra: number;
  dec: number;
  volunteers: number;
  /** P(spiral) of the Dawid–Skene consensus; null without a spiral or elliptical vote. */
  p_spiral: number | null;
  p_interaction: number | null;
  consensus_galaxy_type: string;
  galaxy_type_confidence: number | null;
  consensus_interaction: string;
  interaction_confidence: number | null;
  retired: boolean;
  /** No longer in the course's target list (retired by a later import or seeding); answers kept. */
  removed: boolean;
  true_galaxy_type: string;
  true_interaction: string;
}

/** Targets read per statement: a block of the export. */
export const BLOCK_ROWS = 20_000;
/** Rows a page of catalogueRows gives by default. */
export const PAGE_ROWS = 2000;

/** The targets of `courseId`, removed ones included, with or without answers. */
function courseTargets(db: Kysely<Database>, courseId: string) {
  return db
    .selectFrom('targets as t')
    .innerJoin('areas as a', 'a.id', 't.area_id')
    .innerJoin('levels as l', 'l.id', 'a.level_id')
    .where('l.course_id', '=', courseId);
}

/** The longest of an imported course's target names (a FITS column is of fixed width); 0 without names. */
export async function longestTargetName(db: Kysely<Database>, courseId: string): Promise<number> {
  const row = await sql<{ longest: number | null }>`
    select max(char_length(name)) as longest from imported_targets where course_id = ${courseId}`.execute(db);
  return Number(row.rows[0]?.longest ?? 0);
}

export async function countCatalogueRows(db: Kysely<Database>, courseId: string): Promise<number> {
  const row = await courseTargets(db, courseId)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function courseExists(db: Kysely<Database>, courseId: string): Promise<boolean> {
  return (await db.selectFrom('courses').select('id').where('id', '=', courseId).executeTakeFirst()) !== undefined;
}

const TRUTH_LABELS = { galaxy_type: ['spiral', 'elliptical', 'not_sure'], interaction: ['yes', 'no', 'not_sure'] };
const OPTIONS = VOTES.map((vote) => vote.option);

/** consensus_probability (migration 0009): P(positive class) from the prior and the evidence. */
function probability(prior: number, evidence: number): number {
  return 1 / (1 + Math.exp(-Math.min(Math.max(Math.log(prior / (1 - prior)) + evidence, -700), 700)));
}

/**
 * The catalogue's targets with object_id > `after`, at most `limit`, in object_id order, as the
 * columns of the export (export-columns.ts, by name; `id` and `name` of an imported course too).
 */
export async function catalogueBlock(
  db: Kysely<Database>,
  courseId: string,
  after: number,
  limit = BLOCK_ROWS,
): Promise<ColumnBlock> {
  const course = courseId.replace(/'/g, "''");
  const bytes = await withBulkSession(db, (session) =>
    session.copyOut(`
      select t.object_id, it.source_id, it.name, t.ra, t.dec, co.spiral_prior, co.interaction_prior,
        c.volunteers, ${OPTIONS.map((option) => `c.n_${option}`).join(', ')},
        ${OPTIONS.map((option) => `c.w_${option}`).join(', ')}, c.galaxy_type_evidence, c.interaction_evidence,
        exists (select 1 from retired_targets r where r.object_id = t.object_id), t.retired,
        (case t.galaxy_type when 'spiral' then 0 when 'elliptical' then 1 else 2 end)::int2,
        (case t.interaction when 'yes' then 0 when 'no' then 1 else 2 end)::int2
      from targets t
      join areas a on a.id = t.area_id
      join levels l on l.id = a.level_id
      join courses co on co.id = l.course_id
      left join target_consensus c on c.object_id = t.object_id
      left join imported_targets it on it.object_id = t.object_id
      where l.course_id = '${course}' and t.object_id > ${Math.floor(after)}
      order by t.object_id
      limit ${Math.floor(limit)}`),
  );
  // Read once into columns (a null sum, a target without a row, is 0).
  const objectIds: number[] = [];
  const ids: number[] = [];
  const names: (string | null)[] = [];
  const ra: number[] = [];
  const dec: number[] = [];
  const priors: number[] = [];
  const counts: number[][] = Array.from({ length: OPTIONS.length + 1 }, () => []);
  const weights: number[][] = Array.from({ length: OPTIONS.length }, () => []);
  const evidence: number[] = [];
  const flags: number[] = [];
  const truth: number[] = [];
  const reader = new CopyBinaryReader(bytes);
  while (reader.tuple() >= 0) {
    objectIds.push(reader.integer());
    ids.push(reader.integer());
    names.push(reader.text());
    ra.push(reader.float8());
    dec.push(reader.float8());
    priors.push(reader.float8(), reader.float8());
    for (const column of counts) column.push(reader.integer(0));
    for (const column of weights) {
      const weight = reader.float8();
      column.push(Number.isNaN(weight) ? 0 : weight);
    }
    evidence.push(reader.float8(), reader.float8());
    flags.push(reader.boolean() ? 1 : 0, reader.boolean() ? 1 : 0);
    truth.push(reader.integer(), reader.integer());
  }
  const length = objectIds.length;
  const columns: Record<string, ColumnBlock['columns'][string]> = {
    object_id: Float64Array.from(objectIds),
    id: Float64Array.from(ids),
    name: names,
    ra: Float64Array.from(ra),
    dec: Float64Array.from(dec),
    volunteers: Int32Array.from(counts[0]!),
  };
  OPTIONS.forEach((option, k) => (columns[`n_${option}`] = Int32Array.from(counts[k + 1]!)));
  // The fractions: each option over its question's votes, a feature over the interaction yes
  // answers (the question each vote belongs to is VOTES'); raw counts and weights alike.
  const raw = counts.slice(1);
  const fractions = (parts: number[][]) => {
    const sum = (members: number[]) => {
      const total = new Float64Array(length);
      for (const j of members) for (let row = 0; row < length; row += 1) total[row] += parts[j]![row]!;
      return total;
    };
    const ofQuestion = (question: string) => sum(VOTES.flatMap((vote, j) => (vote.question === question ? [j] : [])));
    const wholes = {
      galaxy_type: ofQuestion('galaxy_type'),
      interaction: ofQuestion('interaction'),
      feature: sum([OPTIONS.indexOf('interaction_yes')]),
    };
    return VOTES.map(({ question }, k) => {
      const whole = wholes[question];
      const values = new Float64Array(length);
      for (let row = 0; row < length; row += 1) values[row] = whole[row] === 0 ? NaN : parts[k]![row]! / whole[row]!;
      return values;
    });
  };
  const rawFractions = fractions(raw);
  const weightedFractions = fractions(weights);
  OPTIONS.forEach((option, k) => {
    columns[`f_${option}`] = rawFractions[k]!;
    columns[`fw_${option}`] = weightedFractions[k]!;
  });
  const spiral = new Float64Array(length);
  const interacting = new Float64Array(length);
  const typeConfidence = new Float64Array(length);
  const interactionConfidence = new Float64Array(length);
  const typeLabel: string[] = [];
  const interactionLabel: string[] = [];
  for (let row = 0; row < length; row += 1) {
    const p = raw[0]![row]! + raw[1]![row]! > 0 ? probability(priors[2 * row]!, evidence[2 * row]!) : NaN;
    const q = raw[3]![row]! + raw[4]![row]! > 0 ? probability(priors[2 * row + 1]!, evidence[2 * row + 1]!) : NaN;
    spiral[row] = p;
    interacting[row] = q;
    typeConfidence[row] = Math.max(p, 1 - p);
    interactionConfidence[row] = Math.max(q, 1 - q);
    typeLabel.push(Number.isNaN(p) ? 'not_sure' : p >= 0.5 ? 'spiral' : 'elliptical');
    interactionLabel.push(Number.isNaN(q) ? 'not_sure' : q >= 0.5 ? 'yes' : 'no');
  }
  Object.assign(columns, {
    p_spiral: spiral,
    p_interaction: interacting,
    consensus_galaxy_type: typeLabel,
    galaxy_type_confidence: typeConfidence,
    consensus_interaction: interactionLabel,
    interaction_confidence: interactionConfidence,
    retired: Uint8Array.from({ length }, (_, row) => flags[2 * row]!),
    removed: Uint8Array.from({ length }, (_, row) => flags[2 * row + 1]!),
    true_galaxy_type: Array.from({ length }, (_, row) => TRUTH_LABELS.galaxy_type[truth[2 * row]!]!),
    true_interaction: Array.from({ length }, (_, row) => TRUTH_LABELS.interaction[truth[2 * row + 1]!]!),
  });
  return { length, columns };
}

/** One page of the catalogue as row objects: the targets with object_id > `after`, in object_id order. */
export async function catalogueRows(
  db: Kysely<Database>,
  courseId: string,
  after: number,
  limit = PAGE_ROWS,
): Promise<CatalogueRow[]> {
  const block = await catalogueBlock(db, courseId, after, limit);
  return Array.from({ length: block.length }, (_, row) => {
    const values: Record<string, unknown> = {};
    for (const [name, column] of Object.entries(block.columns)) {
      const value = column[row];
      if (column instanceof Uint8Array) values[name] = value === 1;
      else if (typeof value === 'number') values[name] = Number.isNaN(value) ? null : value;
      else values[name] = value ?? null;
    }
    return values as unknown as CatalogueRow;
  });
}

/** Every row of the course's catalogue, a page at a time. */
export async function* allCatalogueRows(db: Kysely<Database>, courseId: string): AsyncGenerator<CatalogueRow> {
  let after = -1;
  for (;;) {
    const page = await catalogueRows(db, courseId, after);
    yield* page;
    if (page.length < PAGE_ROWS) return;
    after = page[page.length - 1]!.object_id;
  }
}
