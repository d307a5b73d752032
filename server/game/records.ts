// A volunteer's records (application-spec §3 User stats, §7 my_record and my_records): the quests
// of a course or of all, and the answers per course, kept by a trigger.
import type { Kysely } from 'kysely';
import type { QuestRecord } from '../../shared/api';
import type { CourseId } from '../../shared/enums';
import type { Database } from '../db/schema';
import { toIso } from './model-reads';

export async function questRecords(db: Kysely<Database>, userId: number, courseId?: CourseId): Promise<QuestRecord[]> {
  let query = db
    .selectFrom('quests')
    .innerJoin('levels', 'levels.id', 'quests.level_id')
    .select([
      'quests.id',
      'quests.area_id',
      'quests.course_id',
      'levels.key as level_key',
      'quests.created_at',
      'quests.finished_at',
    ])
    .where('quests.user_id', '=', userId)
    .orderBy('quests.created_at')
    .orderBy('quests.id');
  if (courseId) query = query.where('quests.course_id', '=', courseId);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    area_id: row.area_id,
    course_id: row.course_id as CourseId,
    level_key: row.level_key,
    created_at: row.created_at.toISOString(),
    finished_at: toIso(row.finished_at),
  }));
}

/** The volunteer's answers per course (application-spec §3 User stats), kept by a trigger. */
export async function courseAnswerCounts(db: Kysely<Database>, userId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('course_answer_counts')
    .select(['course_id', 'answers_count'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((row) => [row.course_id, Number(row.answers_count)]));
}
