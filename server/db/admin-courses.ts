// The courses as an administrator sees them (issue 30): every course with where it comes from,
// its targets, volunteers and progress, and the switch that opens an imported course to
// volunteers or closes it (GET and PUT /api/admin/courses, `galaxy-cruise import --open/--close`).
import { sql, type Kysely } from 'kysely';
import type { AdminCourseEntry } from '../../shared/courses';
import type { Database } from './schema';

/** Opens or closes an imported course; false when there is no imported course of that id. */
export async function setCourseOpen(db: Kysely<Database>, courseId: string, open: boolean): Promise<boolean> {
  const updated = await db
    .updateTable('courses')
    .set({ open })
    .where('id', '=', courseId)
    .where('imported', '=', true)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Every course of the courses table in sailing order. Targets count the current (not retired)
 * ones; answered_targets those of them with an answer; volunteers and answers come from the kept
 * per-course counts (course_answer_counts, migration 0006), so the list costs no scan of answers
 * but the answered targets' one.
 */
export async function adminCourses(db: Kysely<Database>): Promise<AdminCourseEntry[]> {
  const { rows } = await sql<{
    id: string;
    name: Record<string, string> | null;
    imported: boolean;
    open: boolean;
    source: string | null;
    hips_url: string | null;
    levels: number | string;
    targets: number | string;
    answered_targets: number | string;
    volunteers: number | string;
    answers: number | string;
  }>`
    with current_targets as (
      select levels.course_id, targets.object_id from targets
      join areas on areas.id = targets.area_id and not areas.retired
      join levels on levels.id = areas.level_id and not levels.retired
      where not targets.retired)
    select courses.id, courses.name, courses.imported, courses.open, courses.source, courses.hips_url,
      (select count(*) from levels where levels.course_id = courses.id and not levels.retired) as levels,
      (select count(*) from current_targets where current_targets.course_id = courses.id) as targets,
      (select count(distinct answers.object_id) from answers
        join current_targets on current_targets.object_id = answers.object_id
        where answers.course_id = courses.id) as answered_targets,
      (select count(*) from course_answer_counts
        where course_answer_counts.course_id = courses.id and answers_count > 0) as volunteers,
      (select coalesce(sum(answers_count), 0) from course_answer_counts
        where course_answer_counts.course_id = courses.id) as answers
    from courses order by courses.position, courses.id`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    ...(row.name ? { name: { en: row.name.en, ja: row.name.ja } } : {}),
    imported: row.imported,
    open: row.open,
    source: row.imported ? (row.source ?? '') : 'catalogue',
    ...(row.hips_url ? { hips_url: row.hips_url } : {}),
    levels: Number(row.levels),
    targets: Number(row.targets),
    answered_targets: Number(row.answered_targets),
    volunteers: Number(row.volunteers),
    answers: Number(row.answers),
  }));
}
