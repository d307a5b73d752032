// Reads of the game model shared by the game's route plugins: a course's levels with their
// playable areas, a user's done areas, and the campaign board. Decisions (status, nearest area,
// medals) are made by the pure functions of server/game/.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { CampaignEntry } from '../../shared/api';
import type { MapLabel } from '../../shared/catalogue';
import type { CourseId } from '../../shared/enums';
import type { Database } from '../db/schema';
import type { SkyPoint } from '../../core/sky-points';

export type Db = Kysely<Database> | Transaction<Database>;

export interface StoredArea {
  id: number;
  centre: SkyPoint;
}

export interface StoredLevel {
  id: number;
  course_id: CourseId;
  key: string;
  name_key: string;
  name: { en: string; ja: string };
  type: 'regular' | 'greed' | 'tunnel_effect';
  depth: 'wide' | 'dud' | 'simulation';
  survey: string;
  labels: MapLabel[];
  /** Playable areas (with at least one target) in sailing order. */
  areas: StoredArea[];
  areaIds: number[];
}

/**
 * The current (not retired) levels of one course or of all, in sailing order. An area without a
 * target could never be finished, so only areas with targets count: a level of none is done.
 */
export async function loadLevels(db: Db, courseId?: CourseId): Promise<StoredLevel[]> {
  let query = db
    .selectFrom('levels')
    .innerJoin('courses', 'courses.id', 'levels.course_id')
    .select([
      'levels.id',
      'levels.course_id',
      'levels.key',
      'levels.name_key',
      'levels.name',
      'levels.type',
      'levels.depth',
      'levels.survey',
      'levels.labels',
    ])
    .where('levels.retired', '=', false)
    .orderBy('courses.position')
    .orderBy('levels.position');
  if (courseId) query = query.where('levels.course_id', '=', courseId);
  const levels = await query.execute();
  let areaQuery = db
    .selectFrom('areas')
    .innerJoin('levels', 'levels.id', 'areas.level_id')
    .select(['areas.id', 'areas.level_id', 'areas.center_ra', 'areas.center_dec'])
    .where('areas.retired', '=', false)
    .where('levels.retired', '=', false)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('targets')
          .select(sql`1`.as('one'))
          .whereRef('targets.area_id', '=', 'areas.id')
          .where('targets.retired', '=', false),
      ),
    )
    .orderBy('areas.level_id')
    .orderBy('areas.position');
  if (courseId) areaQuery = areaQuery.where('levels.course_id', '=', courseId);
  const areas = await areaQuery.execute();
  const byLevel = new Map<number, StoredArea[]>();
  for (const area of areas) {
    const list = byLevel.get(area.level_id) ?? [];
    list.push({ id: area.id, centre: [area.center_ra, area.center_dec] });
    byLevel.set(area.level_id, list);
  }
  return levels.map((level) => {
    const levelAreas = byLevel.get(level.id) ?? [];
    return {
      ...level,
      course_id: level.course_id as CourseId,
      name: level.name as { en: string; ja: string },
      labels: level.labels as MapLabel[],
      areas: levelAreas,
      areaIds: levelAreas.map((area) => area.id),
    };
  });
}

/**
 * The catalogue's version: changes with every seeding (digest and time), and levels, areas and
 * targets change only then. Read inside a statement a request makes anyway, it validates the
 * level cache below without a round trip of its own.
 */
export const catalogueVersion = sql<string>`(select coalesce(digest || '@' || seeded_at::text, '') from catalogue_state where id = 1)`;

/**
 * The levels of every course (two reads) kept per catalogue version: a quest request or an
 * answer that finishes a quest needs them, and they change only when the catalogue is seeded.
 */
class LevelCache {
  private cached: { version: string; levels: Promise<CachedLevels> } | undefined;

  async get(version: string, courseId: CourseId | undefined, via: Db): Promise<StoredLevel[]> {
    const levels = await this.byCourse(version, via);
    return courseId ? (levels.byCourse.get(courseId) ?? []) : levels.all;
  }

  async byCourse(version: string, via: Db): Promise<CachedLevels> {
    if (!this.cached || this.cached.version !== version) {
      const levels = loadLevels(via).then((all) => ({ all, byCourse: levelsByCourse(all) }));
      this.cached = { version, levels };
      levels.catch(() => {
        if (this.cached?.levels === levels) this.cached = undefined;
      });
    }
    return this.cached.levels;
  }
}

/** The levels of every course, and each course's (the same objects), kept as they are. */
interface CachedLevels {
  all: StoredLevel[];
  byCourse: Map<string, StoredLevel[]>;
}

/** Levels by course, each course's in the order given. */
function levelsByCourse(levels: readonly StoredLevel[]): Map<string, StoredLevel[]> {
  const courses = new Map<string, StoredLevel[]>();
  for (const level of levels) {
    const list = courses.get(level.course_id) ?? [];
    list.push(level);
    courses.set(level.course_id, list);
  }
  return courses;
}

/** A course's levels by id and its areas by id, each with its level. */
export interface LevelIndex {
  byId: Map<number, StoredLevel>;
  byArea: Map<number, { level: StoredLevel; area: StoredArea }>;
}

const levelIndexes = new WeakMap<readonly StoredLevel[], LevelIndex>();

/**
 * The index of a cached level list (cachedLevels), made at its first use and kept with it: a
 * course of 100,000 areas is looked up by id in every quest call, never searched.
 */
export function levelIndex(levels: readonly StoredLevel[]): LevelIndex {
  let index = levelIndexes.get(levels);
  if (!index) {
    index = { byId: new Map(), byArea: new Map() };
    for (const level of levels) {
      index.byId.set(level.id, level);
      for (const area of level.areas) index.byArea.set(area.id, { level, area });
    }
    levelIndexes.set(levels, index);
  }
  return index;
}

const levelCaches = new WeakMap<object, LevelCache>();

/**
 * The levels of `courseId` (or all) at catalogue `version`, from the cache of database `db`; a miss
 * reads through `via`, the transaction of the caller if it holds one (PGlite has one connection:
 * a read through `db` would wait for that transaction, which waits for the read).
 */
export function cachedLevels(
  db: Kysely<Database>,
  version: string,
  courseId?: CourseId,
  via: Db = db,
): Promise<StoredLevel[]> {
  return levelCache(db).get(version, courseId, via);
}

function levelCache(db: Kysely<Database>): LevelCache {
  let cache = levelCaches.get(db);
  if (!cache) {
    cache = new LevelCache();
    levelCaches.set(db, cache);
  }
  return cache;
}

async function currentVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ version: string }>`select ${catalogueVersion} as version`.execute(db);
  return rows[0]!.version;
}

/**
 * The levels of `courseId` (or all) as the catalogue holds them now: its version read (one small
 * statement), the levels from the cache at that version. For the routes that need the levels and
 * no statement of their own besides (GET /api/levels, /api/server_info).
 */
export async function currentLevels(db: Kysely<Database>, courseId?: CourseId): Promise<StoredLevel[]> {
  return cachedLevels(db, await currentVersion(db), courseId);
}

/** currentLevels of every course, by course (the cache's own map: nothing is grouped per call). */
export async function currentLevelsByCourse(db: Kysely<Database>): Promise<ReadonlyMap<string, StoredLevel[]>> {
  return (await levelCache(db).byCourse(await currentVersion(db), db)).byCourse;
}

/** Areas of the course that the user finished a quest in. */
export async function doneAreaIds(db: Db, userId: number, courseId: CourseId): Promise<Set<number>> {
  const rows = await db
    .selectFrom('quests')
    .select('area_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('finished_at', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.area_id));
}

/**
 * The areas whose every current target its course's rule retired (docs/science.md, "Retirement"),
 * as a JSON list for a statement that reads them with others: a volunteer passes over them as
 * over done areas, without a quest. Driven by the course's retirements (retired_targets_course,
 * migration 0013), so a course with none costs one probe.
 */
export const settledAreasJson = (courseId: RawBuilder<unknown>) => sql<number[]>`(
  select coalesce(json_agg(settled.area_id), '[]'::json) from (
    select t.area_id from retired_targets r join targets t on t.object_id = r.object_id
    where r.course_id = ${courseId} and not t.retired
    group by t.area_id
    having count(*) = (select count(*) from targets o where o.area_id = t.area_id and not o.retired)
  ) settled)`;

/** The settled areas (settledAreasJson) of one course or of every course, by course. */
export async function settledAreaIds(db: Db, courseId?: string): Promise<Map<string, Set<number>>> {
  const { rows } = await sql<{ course_id: string; area_id: number }>`
    select r.course_id, t.area_id from retired_targets r join targets t on t.object_id = r.object_id
    where ${courseId === undefined ? sql`true` : sql`r.course_id = ${courseId}`} and not t.retired
    group by r.course_id, t.area_id
    having count(*) = (select count(*) from targets o where o.area_id = t.area_id and not o.retired)`.execute(db);
  const byCourse = new Map<string, Set<number>>();
  for (const row of rows) {
    const set = byCourse.get(row.course_id) ?? new Set<number>();
    set.add(row.area_id);
    byCourse.set(row.course_id, set);
  }
  return byCourse;
}

/** The areas a volunteer has passed: those done, and those settled by retirement. */
export function passedAreaIds(done: Iterable<number>, settled: Iterable<number> | undefined): Set<number> {
  const passed = new Set(done);
  for (const id of settled ?? []) passed.add(id);
  return passed;
}

/** Done areas of every course at once (GET /api/levels without course_id). */
export async function doneAreaIdsByCourse(db: Db, userId: number): Promise<Map<string, Set<number>>> {
  const rows = await db
    .selectFrom('quests')
    .select(['course_id', 'area_id'])
    .distinct()
    .where('user_id', '=', userId)
    .where('finished_at', 'is not', null)
    .execute();
  const byCourse = new Map<string, Set<number>>();
  for (const row of rows) {
    const set = byCourse.get(row.course_id) ?? new Set<number>();
    set.add(row.area_id);
    byCourse.set(row.course_id, set);
  }
  return byCourse;
}

/**
 * The live community count of a campaign: its sequence's last ordinal (0005_answer_path.ts), which
 * the seeding sets to the recount of the answers and every new answer in the window advances.
 */
export const campaignCount = sql<number>`coalesce(pg_sequence_last_value(('campaign_answers_' || campaigns.id)::regclass), campaigns.answers_count)`;

/** Every current campaign with its community count, oldest window first. */
export async function campaignBoard(db: Db): Promise<CampaignEntry[]> {
  const rows = await db
    .selectFrom('campaigns')
    .select(['id', 'name', 'period_begin', 'period_end', 'medals', campaignCount.as('answers_count')])
    .where('retired', '=', false)
    .orderBy('period_begin')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    meta: {
      id: row.id,
      name: row.name as CampaignEntry['meta']['name'],
      period_begin: row.period_begin.toISOString(),
      period_end: row.period_end.toISOString(),
      medals: row.medals as CampaignEntry['meta']['medals'],
    },
    count: row.answers_count,
  }));
}

/**
 * GET /api/campaigns is polled every second by every client: one read of the board per second
 * per process, and the counts written by an answer posted through this process at once.
 */
export class CampaignBoardCache {
  private cached: { at: number; board: Promise<CampaignEntry[]> } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxAgeMs = 1000,
  ) {}

  get(): Promise<CampaignEntry[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.maxAgeMs) {
      const board = campaignBoard(this.db);
      this.cached = { at: now, board };
      // A failed read is not kept: the next poll tries again.
      board.catch(() => {
        if (this.cached?.board === board) this.cached = undefined;
      });
    }
    return this.cached.board;
  }

  invalidate(): void {
    this.cached = undefined;
  }

  /**
   * Ordinals drawn by answers of this process: the cached board takes them at once (counts only
   * grow, so the larger one wins), without another read of the database.
   */
  apply(counts: ReadonlyMap<number, number>): void {
    if (!this.cached || counts.size === 0) return;
    const merged = this.cached.board.then((board) =>
      board.map((entry) => {
        const count = counts.get(entry.meta.id);
        return count === undefined || count <= entry.count ? entry : { ...entry, count };
      }),
    );
    merged.catch(() => {});
    this.cached = { at: this.cached.at, board: merged };
  }
}

export function toIso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
