// The one course writer (issue 44): the levels, areas and targets of courses, written by the sky's
// seeding (server/db/seed.ts, the catalogue's five courses) and by `galaxy-cruise import`
// (server/db/imported-course.ts, a research group's course). Each caller keeps what is its own
// (the course rows, how ids are chosen, campaigns, the catalogue's digest) and gives this writer
// the rows with their ids already fixed; it upserts them by id, BATCH rows a statement, and
// retires, within the courses written, what the rows no longer hold. Nothing is deleted: quests
// and answers keep pointing at retired rows. Both callers write under SEED_LOCK in one
// transaction (`seedTransaction`), so a failure leaves the database as it was.
import { sql, type Insertable, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Outline } from '../../shared/catalogue';
import { outlineCentre } from '../../core/sky-points';
import type { AreasTable, Database, LevelsTable, TargetsTable } from './schema';

// Any constant: serialises seeding between server processes that start at once on one PostgreSQL,
// and with `galaxy-cruise import`.
export const SEED_LOCK = 7_242_022;
const BATCH = 500;

/** `write` over `rows`, BATCH rows a statement. */
export async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) await write(rows.slice(start, start + BATCH));
}

/**
 * An upsert's update set (`on conflict … do update set`): each of `columns` takes the value the
 * insert would have written (`excluded.<column>`), for the table whose row type is `Row`.
 */
export function fromExcluded<Row>(columns: readonly (keyof Row & string)[]): Record<string, RawBuilder<never>> {
  return Object.fromEntries(columns.map((column) => [column, sql.ref<never>(`excluded.${column}`)]));
}

/** `work` in one transaction that holds SEED_LOCK: one seeder at a time, the catalogue's or an import. */
export function seedTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    return work(trx);
  });
}

/** A level as the writer takes it: the table's row, its name and labels not yet JSON. */
export interface CourseLevel extends Omit<LevelsTable, 'name' | 'labels' | 'retired'> {
  name: Record<string, string>;
  labels: unknown[];
}

/** An area: its centre is computed from its outlines. */
export interface CourseArea {
  id: number;
  level_id: number;
  position: number;
  outlines: Outline[];
}

/** A target: the table's row, its captain note not yet JSON. */
export interface CourseTarget extends Omit<Insertable<Database['targets']>, 'captain_note' | 'retired'> {
  captain_note: unknown;
}

export interface CourseRows {
  /**
   * The courses these rows are all of (the caller writes their rows in `courses` first): a level,
   * area or target of one of them that the rows no longer hold is retired; other courses are left
   * as they are.
   */
  courseIds: readonly string[];
  levels: CourseLevel[];
  areas: CourseArea[];
  targets: CourseTarget[];
}

/**
 * Writes the rows (each replacing the one of its id; a row written is current) and retires the
 * rest of `courseIds`' levels, areas and targets. Returns how many of those courses' targets are
 * retired now.
 */
export async function writeCourses(trx: Transaction<Database>, rows: CourseRows): Promise<{ retiredTargets: number }> {
  // = any($1) with one array parameter: no statement grows with the course.
  const courses = sql`${sql.val([...rows.courseIds])}::text[]`;
  // Each list in its column's type: `= any` of an array of the same type is a hash lookup (PostgreSQL
  // 14's hashed ScalarArrayOpExpr); integer ids against a bigint[] are compared one by one, every
  // area of a 100,000-area course against every kept id.
  const keepIntegers = (ids: number[]) => sql`${sql.val(ids)}::integer[]`;
  const keepBigints = (ids: number[]) => sql`${sql.val(ids)}::bigint[]`;

  await inBatches(rows.levels, (batch) =>
    trx
      .insertInto('levels')
      .values(
        batch.map((level) => ({ ...level, name: JSON.stringify(level.name), labels: JSON.stringify(level.labels) })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(
            fromExcluded<LevelsTable>([
              'course_id',
              'position',
              'key',
              'name_key',
              'name',
              'type',
              'depth',
              'survey',
              'labels',
            ]),
          ),
      )
      .execute(),
  );
  await sql`update levels set retired = not (id = any(${keepIntegers(rows.levels.map((level) => level.id))}))
    where course_id = any(${courses})`.execute(trx);

  await inBatches(rows.areas, (batch) =>
    trx
      .insertInto('areas')
      .values(
        batch.map((area) => {
          const [ra, dec] = outlineCentre(area.outlines);
          return { ...area, outlines: JSON.stringify(area.outlines), center_ra: ra, center_dec: dec };
        }),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet(fromExcluded<AreasTable>(['level_id', 'position', 'outlines', 'center_ra', 'center_dec'])),
      )
      .execute(),
  );
  await sql`update areas set retired = not (id = any(${keepIntegers(rows.areas.map((area) => area.id))}))
    where level_id in (select id from levels where course_id = any(${courses}))`.execute(trx);

  await inBatches(rows.targets, (batch) =>
    trx
      .insertInto('targets')
      .values(
        batch.map((target) => ({
          ...target,
          captain_note: target.captain_note ? JSON.stringify(target.captain_note) : null,
          retired: false,
        })),
      )
      .onConflict((oc) =>
        oc.column('object_id').doUpdateSet({
          ...fromExcluded<TargetsTable>([
            'area_id',
            'position',
            'ra',
            'dec',
            'galaxy_type',
            'interaction',
            'ring',
            'fan',
            'tail',
            'distorted',
            'captain_note',
          ]),
          retired: false,
        }),
      )
      .execute(),
  );
  const { rows: counted } = await sql<{ retired: number | string }>`
    with changed as (
      update targets set retired = not (object_id = any(${keepBigints(rows.targets.map((target) => target.object_id))}))
      where area_id in (select areas.id from areas join levels on levels.id = areas.level_id
        where levels.course_id = any(${courses}))
      returning retired)
    select count(*) filter (where retired) as retired from changed`.execute(trx);
  return { retiredTargets: Number(counted[0].retired) };
}
