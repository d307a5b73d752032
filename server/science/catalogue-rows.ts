// The galaxy catalogue of a course as rows (docs/science.md): one per target that was ever in the
// course (a target a later import left out stays, marked removed, with its answers), with the
// research group's own id and name for an imported course, its counts, its raw and weighted vote
// fractions, its consensus and confidence, whether it is retired, and the catalogue's truth. Read
// a page at a time in object_id order (keyset), so that an export of a million targets never
// holds more than a page.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface CatalogueRow {
  object_id: number;
  /** An imported course's own target id and name (imported_targets); null for the five courses. */
  id: number | null;
  name: string | null;
  ra: number;
  dec: number;
  volunteers: number;
  n_spiral: number;
  n_elliptical: number;
  n_type_not_sure: number;
  n_interaction_yes: number;
  n_interaction_no: number;
  n_interaction_not_sure: number;
  n_ring: number;
  n_fan: number;
  n_tail: number;
  n_distorted: number;
  f_spiral: number | null;
  f_elliptical: number | null;
  f_type_not_sure: number | null;
  f_interaction_yes: number | null;
  f_interaction_no: number | null;
  f_interaction_not_sure: number | null;
  f_ring: number | null;
  f_fan: number | null;
  f_tail: number | null;
  f_distorted: number | null;
  fw_spiral: number | null;
  fw_elliptical: number | null;
  fw_type_not_sure: number | null;
  fw_interaction_yes: number | null;
  fw_interaction_no: number | null;
  fw_interaction_not_sure: number | null;
  fw_ring: number | null;
  fw_fan: number | null;
  fw_tail: number | null;
  fw_distorted: number | null;
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

const fraction = (part: string, whole: string) => sql.raw(`coalesce(c.${part}, 0)::float8 / nullif(${whole}, 0)`);
const rawTotal = (columns: string[]) => columns.map((column) => `coalesce(c.${column}, 0)`).join(' + ');

/** One page of the catalogue: the targets with object_id > `after`, in object_id order. */
export async function catalogueRows(
  db: Kysely<Database>,
  courseId: string,
  after: number,
  limit = PAGE_ROWS,
): Promise<CatalogueRow[]> {
  const typeVotes = rawTotal(['n_spiral', 'n_elliptical', 'n_type_not_sure']);
  const interactionVotes = rawTotal(['n_interaction_yes', 'n_interaction_no', 'n_interaction_not_sure']);
  const typeWeight = rawTotal(['w_spiral', 'w_elliptical', 'w_type_not_sure']);
  const interactionWeight = rawTotal(['w_interaction_yes', 'w_interaction_no', 'w_interaction_not_sure']);
  const result = await sql<CatalogueRow>`
    select t.object_id, it.source_id as id, it.name, t.ra, t.dec,
      coalesce(c.volunteers, 0) as volunteers,
      coalesce(c.n_spiral, 0) as n_spiral, coalesce(c.n_elliptical, 0) as n_elliptical,
      coalesce(c.n_type_not_sure, 0) as n_type_not_sure,
      coalesce(c.n_interaction_yes, 0) as n_interaction_yes, coalesce(c.n_interaction_no, 0) as n_interaction_no,
      coalesce(c.n_interaction_not_sure, 0) as n_interaction_not_sure,
      coalesce(c.n_ring, 0) as n_ring, coalesce(c.n_fan, 0) as n_fan,
      coalesce(c.n_tail, 0) as n_tail, coalesce(c.n_distorted, 0) as n_distorted,
      ${fraction('n_spiral', typeVotes)} as f_spiral,
      ${fraction('n_elliptical', typeVotes)} as f_elliptical,
      ${fraction('n_type_not_sure', typeVotes)} as f_type_not_sure,
      ${fraction('n_interaction_yes', interactionVotes)} as f_interaction_yes,
      ${fraction('n_interaction_no', interactionVotes)} as f_interaction_no,
      ${fraction('n_interaction_not_sure', interactionVotes)} as f_interaction_not_sure,
      ${fraction('n_ring', 'c.n_interaction_yes')} as f_ring,
      ${fraction('n_fan', 'c.n_interaction_yes')} as f_fan,
      ${fraction('n_tail', 'c.n_interaction_yes')} as f_tail,
      ${fraction('n_distorted', 'c.n_interaction_yes')} as f_distorted,
      ${fraction('w_spiral', typeWeight)} as fw_spiral,
      ${fraction('w_elliptical', typeWeight)} as fw_elliptical,
      ${fraction('w_type_not_sure', typeWeight)} as fw_type_not_sure,
      ${fraction('w_interaction_yes', interactionWeight)} as fw_interaction_yes,
      ${fraction('w_interaction_no', interactionWeight)} as fw_interaction_no,
      ${fraction('w_interaction_not_sure', interactionWeight)} as fw_interaction_not_sure,
      ${fraction('w_ring', 'c.w_interaction_yes')} as fw_ring,
      ${fraction('w_fan', 'c.w_interaction_yes')} as fw_fan,
      ${fraction('w_tail', 'c.w_interaction_yes')} as fw_tail,
      ${fraction('w_distorted', 'c.w_interaction_yes')} as fw_distorted,
      p.spiral as p_spiral, p.interacting as p_interaction,
      case when p.spiral is null then 'not_sure' when p.spiral >= 0.5 then 'spiral' else 'elliptical' end
        as consensus_galaxy_type,
      greatest(p.spiral, 1 - p.spiral) as galaxy_type_confidence,
      case when p.interacting is null then 'not_sure' when p.interacting >= 0.5 then 'yes' else 'no' end
        as consensus_interaction,
      greatest(p.interacting, 1 - p.interacting) as interaction_confidence,
      exists (select 1 from retired_targets r where r.object_id = t.object_id) as retired,
      t.retired as removed,
      t.galaxy_type as true_galaxy_type, t.interaction as true_interaction
    from targets t
    join areas a on a.id = t.area_id
    join levels l on l.id = a.level_id
    join courses co on co.id = l.course_id
    left join target_consensus c on c.object_id = t.object_id
    left join imported_targets it on it.object_id = t.object_id
    cross join lateral (select
      case when c.n_spiral + c.n_elliptical > 0
        then consensus_probability(c.galaxy_type_evidence, co.spiral_prior) end as spiral,
      case when c.n_interaction_yes + c.n_interaction_no > 0
        then consensus_probability(c.interaction_evidence, co.interaction_prior) end as interacting) p
    where l.course_id = ${courseId} and t.object_id > ${after}
    order by t.object_id
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    object_id: Number(row.object_id),
    id: row.id === null ? null : Number(row.id),
  }));
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
