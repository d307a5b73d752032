// Seeding an imported course (issue 30; docs/import.md): a research group's course planned from
// its target list, written beside the catalogue's five in one transaction, so that a failure
// leaves the database as it was. What is the import's own is here; the rows are written by the
// one course writer the sky's seeding uses too (server/db/course-writer.ts). Importing again
// updates the course in place:
//
// - the group's target ids map to object_ids through imported_targets (migration 0011), so a
//   target keeps its object_id, and its answers, across imports; new ids get new object_ids from
//   the sequence imported_object_ids, a range the sky's ids never reach;
// - levels keep their ids by key (`<course>/<n>`); an area keeps the id of the earlier area it
//   shares the most targets with, so a change of the list that shifts the plan does not turn a
//   volunteer's done area into another place; levels, areas and targets the new plan no longer
//   has are retired by the writer, never deleted (quests and answers keep pointing at them);
// - the manifest's names, imagery and retirement rule replace the course's; whether it is open
//   (an administrator's choice) is kept.
//
// The catalogue's seeding (server/db/seed.ts) retires only rows of its own five courses, so a
// `galaxy-cruise data` after an import leaves the imported course alone.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { CaptainNote, Morphology, Outline } from '../../shared/catalogue';
import type { Database } from './schema';
import { seedTransaction, writeCourses } from './course-writer';
import type { HipsColour, ImportedTarget, Retirement } from '../../shared/courses';

/** What the command planned (skydata/areas.ts planPositions): levels of areas of targets. */
export interface ImportedCoursePlan {
  id: string;
  name: { en: string; ja: string };
  /** An http(s) URL, or a path under {dataRepository}; ends with '/'. */
  hipsUrl: string;
  /** A HiPS of FITS tiles: the colour the viewer gives them (null for an image HiPS). */
  hipsColour?: HipsColour | null;
  /** The manifest file. */
  source: string;
  retirement: Retirement | null;
  levels: { areas: { outline: Outline; targets: ImportedTarget[] }[] }[];
  /** A captain note's picture, a path under {dataRepository}, by the list's target id. */
  noteImages?: ReadonlyMap<number, string>;
}

export interface ImportedCourseResult {
  levels: number;
  areas: number;
  targets: number;
  /** Targets whose ids the course had not seen before. */
  added: number;
  /** Targets of an earlier import that the list no longer has. */
  retired: number;
}

/** The first position of the imported courses, after the catalogue's five (0 to 4). */
export const IMPORTED_POSITION_START = 100;

/** A level's key: unique over every course, and of a form the catalogue's keys never take. */
export function importedLevelKey(courseId: string, levelNumber: number): string {
  return `${courseId}/${levelNumber}`;
}

function morphologyOf(target: ImportedTarget): Morphology {
  return {
    galaxy_type: target.galaxyType ?? 'not_sure',
    interaction: target.interaction ?? 'not_sure',
    ring: target.ring ?? false,
    fan: target.fan ?? false,
    tail: target.tail ?? false,
    distorted: target.distorted ?? false,
  };
}

/**
 * The list's captain note as the game's (application-spec §3): the group's text in both
 * languages, the true morphology as the reference answer, and the picture the import cut from
 * the imagery (`imgName`; empty where the imagery is a URL or not PNG), captioned with the
 * target's name (or id).
 */
function captainNoteOf(target: ImportedTarget, imgName = ''): CaptainNote | null {
  if (target.captainNote === null) return null;
  const caption = target.name ?? `#${target.id}`;
  return {
    review_type: 'training',
    answer: morphologyOf(target),
    comments: { en: target.captainNote, ja: target.captainNote },
    img_caption: { en: caption, ja: caption },
    img_name: imgName,
  };
}

async function nextIds(trx: Transaction<Database>, sequence: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await sql<{ id: number | string }>`
    select nextval(${sequence}) as id from generate_series(1, ${count}::integer)`.execute(trx);
  return rows.map((row) => Number(row.id));
}

export async function seedImportedCourse(
  db: Kysely<Database>,
  plan: ImportedCoursePlan,
): Promise<ImportedCourseResult> {
  return seedTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('courses')
      .select(['imported', 'position'])
      .where('id', '=', plan.id)
      .executeTakeFirst();
    if (existing && !existing.imported) throw new Error(`course '${plan.id}' exists and was not imported`);
    const { last } = await trx
      .selectFrom('courses')
      .select((eb) => eb.fn.max('position').as('last'))
      .executeTakeFirstOrThrow();
    const rule = {
      retire_min_volunteers: plan.retirement?.minVolunteers ?? null,
      retire_min_confidence: plan.retirement?.minConfidence ?? null,
      retire_max_volunteers: plan.retirement?.maxVolunteers ?? null,
    };
    const described = {
      name: JSON.stringify(plan.name),
      hips_url: plan.hipsUrl,
      hips_colour: plan.hipsColour ? JSON.stringify(plan.hipsColour) : null,
      source: plan.source,
      ...rule,
    };
    await trx
      .insertInto('courses')
      .values({
        id: plan.id,
        position: existing?.position ?? Math.max(IMPORTED_POSITION_START, (last ?? 0) + 1),
        imported: true,
        ...described,
      })
      .onConflict((oc) => oc.column('id').doUpdateSet(described))
      .execute();

    // Levels: ids kept by key.
    const levelRows = await trx.selectFrom('levels').select(['id', 'key']).where('course_id', '=', plan.id).execute();
    const levelIdByKey = new Map(levelRows.map((row) => [row.key, row.id]));
    const keys = plan.levels.map((_, index) => importedLevelKey(plan.id, index + 1));
    const freshLevelIds = await nextIds(trx, 'imported_level_ids', keys.filter((key) => !levelIdByKey.has(key)).length);
    const levelIds = keys.map((key) => levelIdByKey.get(key) ?? freshLevelIds.shift()!);

    // The id map: new target ids get their object_ids.
    const listed = plan.levels.flatMap((level) => level.areas.flatMap((area) => area.targets));
    const sourceIds = listed.map((target) => target.id);
    const { numAffectedRows } = await sql`
      insert into imported_targets (course_id, source_id, object_id)
      select ${plan.id}, wanted.source_id, nextval('imported_object_ids')
      from unnest(${sql.val(sourceIds)}::bigint[]) with ordinality as wanted(source_id, row)
      where not exists (select 1 from imported_targets
        where imported_targets.course_id = ${plan.id} and imported_targets.source_id = wanted.source_id)
      order by wanted.row`.execute(trx);
    // The names as the list now has them (one statement however long the list).
    await sql`
      update imported_targets set name = listed.name
      from unnest(${sql.val(sourceIds)}::bigint[], ${sql.val(listed.map((target) => target.name))}::text[])
        as listed(source_id, name)
      where imported_targets.course_id = ${plan.id} and imported_targets.source_id = listed.source_id
        and imported_targets.name is distinct from listed.name`.execute(trx);
    const mapped = await trx
      .selectFrom('imported_targets')
      .select(['source_id', 'object_id'])
      .where('course_id', '=', plan.id)
      .execute();
    const objectIdOf = new Map(mapped.map((row) => [Number(row.source_id), Number(row.object_id)]));
    const objectIds = sourceIds.map((id) => objectIdOf.get(id)!);

    // Areas: an area keeps the id of the earlier area it shares the most targets with (the
    // earlier area's current targets, matched greedily, most shared first), so that a volunteer's
    // done area stays the place it was when the plan shifts around it; others get new ids.
    const areas = plan.levels.flatMap((level, levelIndex) =>
      level.areas.map((area, position) => ({ area, position, levelId: levelIds[levelIndex] })),
    );
    const earlier = await trx
      .selectFrom('targets')
      .innerJoin('imported_targets', 'imported_targets.object_id', 'targets.object_id')
      .select(['imported_targets.source_id', 'targets.area_id'])
      .where('imported_targets.course_id', '=', plan.id)
      .where('targets.retired', '=', false)
      .execute();
    const earlierArea = new Map(earlier.map((row) => [Number(row.source_id), row.area_id]));
    const shared: { index: number; areaId: number; count: number }[] = [];
    areas.forEach(({ area }, index) => {
      const counts = new Map<number, number>();
      for (const target of area.targets) {
        const areaId = earlierArea.get(target.id);
        if (areaId !== undefined) counts.set(areaId, (counts.get(areaId) ?? 0) + 1);
      }
      for (const [areaId, count] of counts) shared.push({ index, areaId, count });
    });
    shared.sort((a, b) => b.count - a.count || a.index - b.index || a.areaId - b.areaId);
    const matched = new Map<number, number>();
    const taken = new Set<number>();
    for (const { index, areaId } of shared) {
      if (matched.has(index) || taken.has(areaId)) continue;
      matched.set(index, areaId);
      taken.add(areaId);
    }
    const freshAreaIds = await nextIds(trx, 'imported_area_ids', areas.length - matched.size);
    const areaIds = areas.map((_, index) => matched.get(index) ?? freshAreaIds.shift()!);

    // The rows, written by the one course writer (server/db/course-writer.ts), which retires what
    // this course's new plan no longer has.
    const { retiredTargets } = await writeCourses(trx, {
      courseIds: [plan.id],
      levels: keys.map((key, index) => ({
        id: levelIds[index],
        course_id: plan.id,
        position: index,
        key,
        name_key: `levels.${key}`,
        name: { en: `${plan.name.en} ${index + 1}`, ja: `${plan.name.ja} ${index + 1}` },
        type: 'regular' as const,
        depth: 'wide' as const,
        survey: 'hips',
        labels: [],
      })),
      areas: areas.map(({ area, position, levelId }, index) => ({
        id: areaIds[index],
        level_id: levelId,
        position,
        outlines: [area.outline],
      })),
      // Targets, at their areas' places.
      targets: areas
        .flatMap(({ area }, index) =>
          area.targets.map((target, position) => ({ target, position, areaId: areaIds[index] })),
        )
        .map(({ target, position, areaId }, index) => ({
          object_id: objectIds[index]!,
          area_id: areaId,
          position,
          ra: target.ra,
          dec: target.dec,
          ...morphologyOf(target),
          captain_note: captainNoteOf(target, plan.noteImages?.get(target.id)),
        })),
    });

    // A new catalogue version: the servers' level caches (server/game/model-reads.ts) read again.
    // The digest stays, so the catalogue's seeding still runs when its own file changes.
    await sql`insert into catalogue_state (id, digest) values (1, '')
      on conflict (id) do update set seeded_at = clock_timestamp()`.execute(trx);
    return {
      levels: plan.levels.length,
      areas: areas.length,
      targets: objectIds.length,
      added: Number(numAffectedRows ?? 0),
      retired: retiredTargets,
    };
  });
}
