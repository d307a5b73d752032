// The data behind recommended_course (GET /api/session); the rule is server/game/recommend.ts.
import type { Kysely } from 'kysely';
import type { CourseId } from '../../shared/enums';
import type { Database } from '../db/schema';
import { recommendCourse } from '../game/recommend';

export async function recommendedCourse(db: Kysely<Database>, userId: number): Promise<CourseId | null> {
  const answered = await db
    .selectFrom('answers')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  const latest = answered
    ? await db
        .selectFrom('quests')
        .select('course_id')
        .where('user_id', '=', userId)
        .where('finished_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
    : undefined;
  return recommendCourse(answered !== undefined, latest?.course_id as CourseId | undefined);
}
