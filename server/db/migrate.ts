// Versioned migrations, run at every start. The list is static (not a folder scan) so that
// the order is reviewed in code and bundling cannot lose a file.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as accounts from './migrations/0001_accounts';
import * as accountsSecurity from './migrations/0002_accounts_security';
import * as game from './migrations/0003_game';
import * as notificationsGifts from './migrations/0004_notifications_gifts';
import * as answerPath from './migrations/0005_answer_path';
import * as courseAnswerCounts from './migrations/0006_course_answer_counts';
import * as rankingCounts from './migrations/0007_ranking_counts';
import * as science from './migrations/0009_science';
import * as accountHardening from './migrations/0010_account_hardening';
import * as importedCourses from './migrations/0011_imported_courses';
import * as retiredTargets from './migrations/0012_retired_targets';
import * as reopenedTargets from './migrations/0013_reopened_targets';
import * as courseHipsColour from './migrations/0014_course_hips_colour';
import * as nicknameSkeleton from './migrations/0015_nickname_skeleton';
import * as scienceEstimatePause from './migrations/0016_science_estimate_pause';

const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_accounts_security': accountsSecurity,
  '0003_game': game,
  '0004_notifications_gifts': notificationsGifts,
  '0005_answer_path': answerPath,
  '0006_course_answer_counts': courseAnswerCounts,
  '0007_ranking_counts': rankingCounts,
  '0009_science': science,
  '0010_account_hardening': accountHardening,
  '0011_imported_courses': importedCourses,
  '0012_retired_targets': retiredTargets,
  '0013_reopened_targets': reopenedTargets,
  '0014_course_hips_colour': courseHipsColour,
  '0015_nickname_skeleton': nicknameSkeleton,
  '0016_science_estimate_pause': scienceEstimatePause,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws with the failing migration's name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return results.map((result) => result.migrationName);
}
