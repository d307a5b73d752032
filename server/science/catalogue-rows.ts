// The galaxy catalogue of a course (docs/science.md): one row per target that was ever in the
// course (a target a later import left out stays, marked removed, with its answers), with the
// research group's own id and name for an imported course, its counts, its raw and weighted vote
// fractions, its consensus and confidence, whether it is retired, and the catalogue's truth.
//
// Read a block of targets at a time in object_id order (keyset on the primary key), as columns:
// COPY statements (../db/bulk-copy.ts), each a range of one table's index, give the targets and
// their sums as target_consensus keeps them, decoded straight into typed arrays and joined there
// by object_id; the fractions, probabilities and labels are derived from them (the formulas the
// SQL had: a raw fraction is a count over the votes of its question, a weighted one a weight over
// the weight of its question, the features among the yes answers; P =
// consensus_probability(evidence, prior)).
// An export of a million targets never holds more than a block, and builds no object per row.
import { sql, type Kysely } from 'kysely';
import { withBulkSession } from '../db/bulk-copy';
import { CopyBinaryReader, EMPTY_COPY } from '../db/copy-binary';
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

/** Targets scanned per block of the export (a block's columns are a few tens of megabytes). */
export const BLOCK_ROWS = 100_000;
/** Rows a page of catalogueRows gives by default. */
export const PAGE_ROWS = 2000;

/** What a read of a course's catalogue needs once: its targets' count and object_id range, its areas, priors. */
export interface CatalogueCourse {
  courseId: string;
  /** The course's targets, removed ones included. */
  total: number;
  /** The lowest and highest object_id of the course's targets (0 and −1 without targets). */
  first: number;
  last: number;
  /** The course's areas: a target belongs to the course when its area does. */
  areas: ReadonlySet<number>;
  imported: boolean;
  spiralPrior: number;
  interactionPrior: number;
}

/** The longest of an imported course's target names (a FITS column is of fixed width); 0 without names. */
export async function longestTargetName(db: Kysely<Database>, courseId: string): Promise<number> {
  const row = await sql<{ longest: number | null }>`
    select max(char_length(name)) as longest from imported_targets where course_id = ${courseId}`.execute(db);
  return Number(row.rows[0]?.longest ?? 0);
}

export async function catalogueCourse(db: Kysely<Database>, courseId: string): Promise<CatalogueCourse> {
  const course = await db
    .selectFrom('courses')
    .select(['imported', 'spiral_prior', 'interaction_prior'])
    .where('id', '=', courseId)
    .executeTakeFirstOrThrow();
  const areas = await db
    .selectFrom('areas as a')
    .innerJoin('levels as l', 'l.id', 'a.level_id')
    .select('a.id')
    .where('l.course_id', '=', courseId)
    .execute();
  const range = await sql<{ total: number; first: number | null; last: number | null }>`
    select count(*) as total, min(t.object_id) as first, max(t.object_id) as last
    from targets t join areas a on a.id = t.area_id join levels l on l.id = a.level_id
    where l.course_id = ${courseId}`.execute(db);
  const { total, first, last } = range.rows[0]!;
  return {
    courseId,
    total: Number(total),
    first: first === null ? 0 : Number(first),
    last: last === null ? -1 : Number(last),
    areas: new Set(areas.map((area) => area.id)),
    imported: course.imported,
    spiralPrior: course.spiral_prior,
    interactionPrior: course.interaction_prior,
  };
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

/** A block of the catalogue and where the next one starts. */
export interface CatalogueBlock {
  block: ColumnBlock;
  /** The last object_id scanned: the next block reads the targets after it. */
  last: number;
  /** Every target of the course up to its last has been scanned. */
  done: boolean;
}

/**
 * The course's targets among the `limit` targets with object_id > `after` (in object_id order,
 * any course's: a keyset over the primary key, so a block costs its rows wherever it starts), as
 * the columns of the export (export-columns.ts, by name; `id` and `name` of an imported course too).
 * Each table is read by its own statement over the same object_id range, every one a range of an
 * index, and the rows are joined here: a single joined statement let the planner walk the whole
 * course through its areas and sort it for every block.
 */
export async function catalogueBlock(
  db: Kysely<Database>,
  course: CatalogueCourse,
  after: number,
  limit = BLOCK_ROWS,
): Promise<CatalogueBlock> {
  const from = Math.max(Math.floor(after), course.first - 1);
  const last = Math.floor(course.last);
  if (from >= last) return { block: emptyBlock(course), last: from, done: true };
  const read = await withBulkSession(db, async (session) => {
    // The truth and the removed flag in one small integer: ((galaxy_type · 3) + interaction) · 2 + removed.
    const targets = await session.copyOut(`
      select object_id, area_id, ra, dec,
        (((case galaxy_type when 'spiral' then 0 when 'elliptical' then 1 else 2 end) * 3
          + (case interaction when 'yes' then 0 when 'no' then 1 else 2 end)) * 2 + retired::int)::int2
      from targets where object_id > ${from} and object_id <= ${last} order by object_id limit ${Math.floor(limit)}`);
    const scanned = lastObjectId(targets);
    const range = `object_id > ${from} and object_id <= ${scanned}`;
    return {
      targets,
      scanned,
      consensus: await session.copyOut(`
        select object_id, volunteers, ${OPTIONS.map((option) => `n_${option}`).join(', ')},
          ${OPTIONS.map((option) => `w_${option}`).join(', ')}, galaxy_type_evidence, interaction_evidence
        from target_consensus where ${range} order by object_id`),
      retired: await session.copyOut(`select object_id from retired_targets where ${range} order by object_id`),
      imported: course.imported
        ? await session.copyOut(`
            select object_id, source_id, name from imported_targets
            where course_id = '${course.courseId.replace(/'/g, "''")}' and ${range} order by object_id`)
        : undefined,
    };
  });
  const columns = readColumns(course, read, limit);
  const done = read.scanned >= last || columns.scannedRows < limit;
  return { block: columnBlock(course, columns), last: Math.max(from, read.scanned), done };
}

/** The object_id of the last tuple of a COPY of targets (its first field), or −1 without tuples. */
function lastObjectId(bytes: Uint8Array): number {
  let last = -1;
  const reader = new CopyBinaryReader(bytes);
  while (reader.tuple() >= 0) {
    last = reader.integer();
    reader.skip(4);
  }
  return last;
}

interface ReadColumns {
  length: number;
  scannedRows: number;
  objectIds: Float64Array;
  ids: Float64Array;
  names: (string | null)[];
  ra: Float64Array;
  dec: Float64Array;
  /** volunteers, then n_ of each option. */
  counts: Int32Array[];
  weights: Float64Array[];
  typeEvidence: Float64Array;
  interactionEvidence: Float64Array;
  retired: Uint8Array;
  removed: Uint8Array;
  /** galaxy_type · 3 + interaction, as TRUTH_LABELS index them. */
  truth: Uint8Array;
}

/** The block's rows decoded straight into typed arrays: the course's targets, then the other tables joined by object_id. */
function readColumns(
  course: CatalogueCourse,
  read: { targets: Uint8Array; consensus: Uint8Array; retired: Uint8Array; imported?: Uint8Array },
  limit: number,
): ReadColumns {
  const size = Math.max(1, limit);
  const objectIds = new Float64Array(size);
  const ra = new Float64Array(size);
  const dec = new Float64Array(size);
  const removed = new Uint8Array(size);
  const truth = new Uint8Array(size);
  let length = 0;
  let scannedRows = 0;
  const targets = new CopyBinaryReader(read.targets);
  while (targets.tuple() >= 0) {
    scannedRows += 1;
    const objectId = targets.integer();
    if (!course.areas.has(targets.integer())) {
      targets.skip(3);
      continue;
    }
    objectIds[length] = objectId;
    ra[length] = targets.float8();
    dec[length] = targets.float8();
    const code = targets.integer();
    removed[length] = code & 1;
    truth[length] = code >> 1;
    length += 1;
  }
  const counts = Array.from({ length: OPTIONS.length + 1 }, () => new Int32Array(length));
  const weights = Array.from({ length: OPTIONS.length }, () => new Float64Array(length));
  // A target without a row of sums has no votes: its evidence is NaN, as the SQL's null was.
  const typeEvidence = new Float64Array(length).fill(NaN);
  const interactionEvidence = new Float64Array(length).fill(NaN);
  // Both lists are in object_id order: each tuple's row is found by walking forward.
  let row = 0;
  const rowOf = (objectId: number) => {
    while (row < length && objectIds[row]! < objectId) row += 1;
    return row < length && objectIds[row] === objectId ? row : -1;
  };
  const consensus = new CopyBinaryReader(read.consensus);
  const sums = OPTIONS.length * 2 + 3;
  while (consensus.tuple() >= 0) {
    const at = rowOf(consensus.integer());
    if (at < 0) {
      consensus.skip(sums);
      continue;
    }
    for (const column of counts) column[at] = consensus.integer(0);
    for (const column of weights) column[at] = consensus.float8();
    typeEvidence[at] = consensus.float8();
    interactionEvidence[at] = consensus.float8();
  }
  const retired = new Uint8Array(length);
  row = 0;
  const retiredReader = new CopyBinaryReader(read.retired);
  while (retiredReader.tuple() >= 0) {
    const at = rowOf(retiredReader.integer());
    if (at >= 0) retired[at] = 1;
  }
  const ids = new Float64Array(length).fill(NaN);
  const names = new Array<string | null>(length).fill(null);
  if (read.imported) {
    row = 0;
    const imported = new CopyBinaryReader(read.imported);
    while (imported.tuple() >= 0) {
      const at = rowOf(imported.integer());
      if (at < 0) {
        imported.skip(2);
        continue;
      }
      ids[at] = imported.integer();
      names[at] = imported.text();
    }
  }
  return {
    length,
    scannedRows,
    objectIds: objectIds.subarray(0, length),
    ids,
    names,
    ra: ra.subarray(0, length),
    dec: dec.subarray(0, length),
    counts,
    weights,
    typeEvidence,
    interactionEvidence,
    retired,
    removed: removed.subarray(0, length),
    truth: truth.subarray(0, length),
  };
}

function emptyBlock(course: CatalogueCourse): ColumnBlock {
  return columnBlock(
    course,
    readColumns(course, { targets: EMPTY_COPY, consensus: EMPTY_COPY, retired: EMPTY_COPY }, 0),
  );
}

/** The export's columns from the block's: the fractions, probabilities and labels derived. */
function columnBlock(course: CatalogueCourse, read: ReadColumns): ColumnBlock {
  const { length, counts, weights } = read;
  const columns: Record<string, ColumnBlock['columns'][string]> = {
    object_id: read.objectIds,
    id: read.ids,
    name: read.names,
    ra: read.ra,
    dec: read.dec,
    volunteers: counts[0]!,
  };
  OPTIONS.forEach((option, k) => (columns[`n_${option}`] = counts[k + 1]!));
  // The fractions: each option over its question's votes, a feature over the interaction yes
  // answers (the question each vote belongs to is VOTES'); raw counts and weights alike.
  const raw = counts.slice(1);
  const fractions = (parts: ArrayLike<number>[]) => {
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
  const typeLabel = new Array<string>(length);
  const interactionLabel = new Array<string>(length);
  const trueType = new Array<string>(length);
  const trueInteraction = new Array<string>(length);
  for (let row = 0; row < length; row += 1) {
    const p = raw[0]![row]! + raw[1]![row]! > 0 ? probability(course.spiralPrior, read.typeEvidence[row]!) : NaN;
    const q =
      raw[3]![row]! + raw[4]![row]! > 0 ? probability(course.interactionPrior, read.interactionEvidence[row]!) : NaN;
    spiral[row] = p;
    interacting[row] = q;
    typeConfidence[row] = Math.max(p, 1 - p);
    interactionConfidence[row] = Math.max(q, 1 - q);
    typeLabel[row] = Number.isNaN(p) ? 'not_sure' : p >= 0.5 ? 'spiral' : 'elliptical';
    interactionLabel[row] = Number.isNaN(q) ? 'not_sure' : q >= 0.5 ? 'yes' : 'no';
    trueType[row] = TRUTH_LABELS.galaxy_type[Math.floor(read.truth[row]! / 3)]!;
    trueInteraction[row] = TRUTH_LABELS.interaction[read.truth[row]! % 3]!;
  }
  Object.assign(columns, {
    p_spiral: spiral,
    p_interaction: interacting,
    consensus_galaxy_type: typeLabel,
    galaxy_type_confidence: typeConfidence,
    consensus_interaction: interactionLabel,
    interaction_confidence: interactionConfidence,
    retired: read.retired,
    removed: read.removed,
    true_galaxy_type: trueType,
    true_interaction: trueInteraction,
  });
  return { length, columns };
}

/** A block's rows as row objects. */
function rowObjects(block: ColumnBlock): CatalogueRow[] {
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

/** Up to `limit` rows of the course's catalogue after `after`, and where the next page starts. */
async function page(db: Kysely<Database>, course: CatalogueCourse, after: number, limit: number) {
  const rows: CatalogueRow[] = [];
  let next = after;
  for (;;) {
    const { block, last, done } = await catalogueBlock(db, course, next, limit - rows.length);
    rows.push(...rowObjects(block));
    next = last;
    if (done || rows.length >= limit) return { rows, next, done };
  }
}

/** One page of the catalogue as row objects: the targets with object_id > `after`, in object_id order. */
export async function catalogueRows(
  db: Kysely<Database>,
  courseId: string,
  after: number,
  limit = PAGE_ROWS,
): Promise<CatalogueRow[]> {
  return (await page(db, await catalogueCourse(db, courseId), after, limit)).rows;
}

/** Every row of the course's catalogue, a page at a time. */
export async function* allCatalogueRows(db: Kysely<Database>, courseId: string): AsyncGenerator<CatalogueRow> {
  const course = await catalogueCourse(db, courseId);
  let after = -1;
  for (;;) {
    const { rows, next, done } = await page(db, course, after, PAGE_ROWS);
    yield* rows;
    if (done) return;
    after = next;
  }
}
