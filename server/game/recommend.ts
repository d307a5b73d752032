// recommended_course of GET /api/session: where the app sends a volunteer after login.
import type { CourseId } from '../../shared/enums';

/**
 * A volunteer who has answered nothing yet starts with training; one who has answered goes back
 * to the course of their latest unfinished quest (the cruise they were on); otherwise none is
 * recommended and the app stays on its default course.
 */
export function recommendCourse(hasAnswered: boolean, latestUnfinishedCourse: CourseId | undefined): CourseId | null {
  if (!hasAnswered) return 'training';
  return latestUnfinishedCourse ?? null;
}
