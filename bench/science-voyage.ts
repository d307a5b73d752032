// A simulated crowd sailing a research course through the HTTP API (docs/science.md, "The crowd
// through the API"): each volunteer does what the main screen does — fetches the current quest,
// answers its first target, then each time the nearest one not answered (chosen when an answer is
// sent, before its reply),
// drops the targets the reply says were retired (but the one on screen), fetches the next quest
// when none is left, and stops when the course has no galaxy left — while the science runs as the
// serving process runs it: the answers summed every second, the reliability re-estimated every
// ten minutes once the answers grew by 5 % (the first 100 at least). Time is simulated, so a run
// costs its requests and statements only. Arrivals:
//   - 'in-step': every volunteer starts at once and sails at their own pace (8 to 20 s a galaxy);
//   - 'one-after-another': each starts when the one before has nothing left to sail.
// Used by tests/server/science-voyage.test.ts and `npm run bench -- science`.
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Answer, CurrentQuestResponse, NewRecordResponse, Question } from '../shared/api';
import { buildApp } from '../server/app';
import { SESSION_COOKIE, hashToken } from '../server/auth/session-user';
import { loadConfig } from '../server/config';
import type { Database } from '../server/db/schema';
import { sumNewAnswers } from '../server/science/consensus';
import { estimateReliability } from '../server/science/reliability';
import { seededRandom, type RetirementRule } from './science-crowd';

/** What a simulated volunteer is like: right with probability `accuracy`, or a fixed habit. */
export type VoyagerKind = 'good' | 'noisy' | 'spiral' | 'random';

export interface VoyagerProfile {
  kind: VoyagerKind;
  /** P(right) on each question of 'good' and 'noisy' volunteers. */
  accuracy: number;
}

/** The crowd of the issue that found retirement wanting: 18 good, 7 noisy, 3 always "spiral", 2 random. */
export const THIRTY_VOLUNTEERS: VoyagerProfile[] = [
  ...Array.from({ length: 18 }, () => ({ kind: 'good' as const, accuracy: 0.9 })),
  ...Array.from({ length: 7 }, () => ({ kind: 'noisy' as const, accuracy: 0.65 })),
  ...Array.from({ length: 3 }, () => ({ kind: 'spiral' as const, accuracy: 0 })),
  ...Array.from({ length: 2 }, () => ({ kind: 'random' as const, accuracy: 0.5 })),
];

export type Arrival = 'in-step' | 'one-after-another';
export const ARRIVALS: readonly Arrival[] = ['in-step', 'one-after-another'];

/** One HTTP call: the app's inject in the tests, or fetch against a server. */
export interface VoyageApi {
  request(call: {
    method: 'GET' | 'POST';
    url: string;
    cookie: string;
    body?: unknown;
  }): Promise<{ status: number; body: unknown }>;
}

export interface VoyageTarget {
  object_id: number;
  spiral: boolean;
  interacting: boolean;
}

export interface VoyageCourse {
  courseId: string;
  areas: number;
  targets: VoyageTarget[];
}

const LEVEL_IDS = 910_000;

/**
 * An imported research course (open, named) of `targets` galaxies, `perArea` to an area and
 * `areasPerLevel` areas to a level, with a known truth (60 % spiral, 30 % interacting), seeded
 * straight into the database as `galaxy-cruise import` would leave it.
 */
export async function seedVoyageCourse(
  db: Kysely<Database>,
  {
    courseId = 'voyage',
    targets: count,
    perArea = 8,
    areasPerLevel = 3,
    seed = 7,
  }: {
    courseId?: string;
    targets: number;
    perArea?: number;
    areasPerLevel?: number;
    seed?: number;
  },
): Promise<VoyageCourse> {
  const random = seededRandom(seed);
  await db
    .insertInto('courses')
    .values({
      id: courseId,
      position: 150,
      imported: true,
      open: true,
      name: JSON.stringify({ en: 'Simulated voyage', ja: 'シミュレーション航海' }),
    })
    .execute();
  const areaCount = Math.ceil(count / perArea);
  const levelCount = Math.ceil(areaCount / areasPerLevel);
  await db
    .insertInto('levels')
    .values(
      Array.from({ length: levelCount }, (_, position) => ({
        id: LEVEL_IDS + position,
        course_id: courseId,
        position,
        key: `voyage-${position + 1}`,
        name_key: `voyage-${position + 1}`,
        name: JSON.stringify({ en: `Stage ${position + 1}`, ja: `ステージ${position + 1}` }),
        type: 'regular' as const,
        depth: 'wide' as const,
        survey: 'wide',
        labels: '[]',
      })),
    )
    .execute();
  const areaId = (index: number) => LEVEL_IDS * 100 + index;
  await db
    .insertInto('areas')
    .values(
      Array.from({ length: areaCount }, (_, index) => ({
        id: areaId(index),
        level_id: LEVEL_IDS + Math.floor(index / areasPerLevel),
        position: index % areasPerLevel,
        outlines: '[]',
        center_ra: 150 + index * 0.5,
        center_dec: 2,
      })),
    )
    .execute();
  const targets: VoyageTarget[] = Array.from({ length: count }, (_, index) => ({
    object_id: 910_000_000_000 + index,
    spiral: random() < 0.6,
    interacting: random() < 0.3,
  }));
  await db
    .insertInto('targets')
    .values(
      targets.map((target, index) => ({
        object_id: target.object_id,
        area_id: areaId(Math.floor(index / perArea)),
        position: index % perArea,
        ra: 150 + Math.floor(index / perArea) * 0.5 + (index % perArea) * 0.01,
        dec: 2 + (index % perArea) * 0.01,
        galaxy_type: target.spiral ? ('spiral' as const) : ('elliptical' as const),
        interaction: target.interacting ? ('yes' as const) : ('no' as const),
        ring: false,
        fan: false,
        tail: target.interacting,
        distorted: false,
        captain_note: null,
      })),
    )
    .execute();
  return { courseId, areas: areaCount, targets };
}

export interface Voyager {
  id: number;
  profile: VoyagerProfile;
  cookie: string;
}

/** Accounts with live sessions for `profiles`, written straight into the database. */
export async function createVoyagers(
  db: Kysely<Database>,
  profiles: readonly VoyagerProfile[],
  prefix = 'voyager',
): Promise<Voyager[]> {
  const voyagers: Voyager[] = [];
  for (const [index, profile] of profiles.entries()) {
    const user = await db
      .insertInto('users')
      .values({
        email: `${prefix}${index}@voyage.example.org`,
        nickname: `${prefix}${index}`,
        locale: 'en',
        password_hash: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = crypto.randomBytes(32).toString('base64url');
    await db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + 24 * 3600_000) })
      .execute();
    voyagers.push({ id: user.id, profile, cookie: `${SESSION_COOKIE}=${token}` });
  }
  return voyagers;
}

/** The rule on the course (null: none), as `galaxy-cruise science rule` sets it. */
export async function setVoyageRule(db: Kysely<Database>, courseId: string, rule: RetirementRule | null) {
  await db
    .updateTable('courses')
    .set({
      retire_min_volunteers: rule?.min_volunteers ?? null,
      retire_min_confidence: rule?.min_confidence ?? null,
      retire_max_volunteers: rule?.max_volunteers ?? null,
    })
    .where('id', '=', courseId)
    .execute();
}

/**
 * The unanswered question nearest to `from`, as the main screen chooses the next galaxy
 * (src/app/features/cruise/answerSteps.ts nearestUnanswered: the app's code stays the app's).
 */
function nearestUnanswered(questions: readonly Question[], answered: ReadonlySet<number>, from: Question) {
  const radians = Math.PI / 180;
  let best: Question | null = null;
  let bestDistance = Infinity;
  for (const question of questions) {
    if (answered.has(question.object_id)) continue;
    const cosine =
      Math.sin(from.dec * radians) * Math.sin(question.dec * radians) +
      Math.cos(from.dec * radians) * Math.cos(question.dec * radians) * Math.cos((question.ra - from.ra) * radians);
    const distance = Math.acos(Math.min(1, Math.max(-1, cosine)));
    if (distance < bestDistance) [best, bestDistance] = [question, distance];
  }
  return best;
}

/** The answer a volunteer of `profile` gives a target. */
function answerOf(profile: VoyagerProfile, target: VoyageTarget, random: () => number): Answer {
  const right = () => random() < profile.accuracy;
  let spiral: boolean;
  let interacting: boolean;
  if (profile.kind === 'spiral') [spiral, interacting] = [true, false];
  else if (profile.kind === 'random') [spiral, interacting] = [random() < 0.5, random() < 0.5];
  else [spiral, interacting] = [right() === target.spiral, right() === target.interacting];
  return {
    object_id: target.object_id,
    galaxy_type: spiral ? 'spiral' : 'elliptical',
    interaction: interacting ? 'yes' : 'no',
    ring: false,
    fan: false,
    tail: interacting,
    distorted: false,
  };
}

/** What the science of a serving process does, called by the simulation at its own times. */
export interface VoyageScience {
  /** Adds the answers logged since the last call (sumNewAnswers). */
  sum(): Promise<unknown>;
  /** Re-estimates the reliability (estimateReliability). */
  estimate(): Promise<unknown>;
  /** The answers so far (the service's growth test). */
  answers(): Promise<number>;
}

export interface VoyageOutcome {
  arrival: Arrival;
  /** Answers the server took (2xx). */
  answers: number;
  /** Every reply by status (GET and POST). */
  statuses: Record<number, number>;
  serverErrors: number;
  /** Simulated seconds from the first call to the last volunteer's end. */
  seconds: number;
  estimates: number;
  /**
   * Volunteers whose course ended with areas they had not done (what the main screen says "no
   * galaxy available" to), and those who found nothing left at their first call (the late ones).
   */
  noGalaxyLeft: number;
  nothingAtFirst: number;
  /** Volunteers whose last quest reply said the course has no galaxy left. */
  ended: number;
}

const SUM_EVERY_S = 1;
const ESTIMATE_EVERY_S = 600;
const ESTIMATE_GROWTH = 0.05;

interface Sailor {
  voyager: Voyager;
  random: () => number;
  pace: number;
  at: number;
  quest: Extract<CurrentQuestResponse, { no_more_available_objects: false }> | null;
  questions: Question[];
  answered: Set<number>;
  current: Question | null;
  first: boolean;
  finished: boolean;
}

/**
 * The crowd sails the course until no volunteer has anything left: returns what the server
 * answered and how many answers it took.
 */
export async function sailCourse(
  api: VoyageApi,
  course: VoyageCourse,
  voyagers: readonly Voyager[],
  science: VoyageScience,
  { arrival, seed = 11 }: { arrival: Arrival; seed?: number },
): Promise<VoyageOutcome> {
  const truth = new Map(course.targets.map((target) => [target.object_id, target]));
  const outcome: VoyageOutcome = {
    arrival,
    answers: 0,
    statuses: {},
    serverErrors: 0,
    seconds: 0,
    estimates: 0,
    noGalaxyLeft: 0,
    nothingAtFirst: 0,
    ended: 0,
  };
  const random = seededRandom(seed);
  const sailors: Sailor[] = voyagers.map((voyager, index) => ({
    voyager,
    random: seededRandom(seed * 1000 + index),
    pace: 8 + random() * 12,
    at: arrival === 'in-step' ? random() * 5 : Infinity,
    quest: null,
    questions: [],
    answered: new Set(),
    current: null,
    first: true,
    finished: false,
  }));
  if (arrival === 'one-after-another') sailors[0]!.at = 0;
  const call = async (sailor: Sailor, method: 'GET' | 'POST', url: string, body?: unknown) => {
    const reply = await api.request({ method, url, cookie: sailor.voyager.cookie, body });
    outcome.statuses[reply.status] = (outcome.statuses[reply.status] ?? 0) + 1;
    if (reply.status >= 500) outcome.serverErrors += 1;
    return reply;
  };
  /** The next quest, as the main screen fetches it after an area; false when the course is over. */
  const nextQuest = async (sailor: Sailor): Promise<boolean> => {
    const reply = await call(sailor, 'GET', `/api/courses/${course.courseId}/quests/current`);
    if (reply.status !== 200) return false;
    const quest = reply.body as CurrentQuestResponse;
    if (quest.no_more_available_objects) {
      outcome.ended += 1;
      if (quest.done_area_ids.length < course.areas) outcome.noGalaxyLeft += 1;
      if (sailor.first) outcome.nothingAtFirst += 1;
      return false;
    }
    sailor.first = false;
    sailor.quest = quest;
    sailor.questions = quest.questions;
    sailor.answered = new Set(quest.answers.map((answer) => answer.object_id));
    sailor.current = sailor.questions.find((question) => !sailor.answered.has(question.object_id)) ?? null;
    return sailor.current !== null;
  };
  const end = (sailor: Sailor, now: number) => {
    sailor.finished = true;
    sailor.at = Infinity;
    outcome.seconds = Math.max(outcome.seconds, now);
    if (arrival === 'one-after-another') {
      const next = sailors.find((candidate) => !candidate.finished && candidate.at === Infinity);
      if (next) next.at = now;
    }
  };
  /** One answer, sent as the main screen sends it: the next target chosen before the reply. */
  const answerOne = async (sailor: Sailor) => {
    const current = sailor.current!;
    const sent = answerOf(sailor.voyager.profile, truth.get(current.object_id)!, sailor.random);
    const next = nearestUnanswered(sailor.questions, new Set(sailor.answered).add(current.object_id), current);
    const reply = await call(sailor, 'POST', `/api/quests/${sailor.quest!.id}/answers`, sent);
    if (reply.status >= 200 && reply.status < 300) outcome.answers += 1;
    sailor.answered.add(current.object_id);
    const retired = new Set((reply.body as Partial<NewRecordResponse>).retired_object_ids ?? []);
    sailor.questions = sailor.questions.filter(
      (question) => question === next || sailor.answered.has(question.object_id) || !retired.has(question.object_id),
    );
    sailor.current = next;
  };

  let lastSum = 0;
  let lastEstimate = 0;
  let answersAtEstimate = 0;
  let summedAnswers = 0;
  for (;;) {
    const sailor = sailors.reduce<Sailor | undefined>(
      (best, candidate) => (!candidate.finished && (!best || candidate.at < best.at) ? candidate : best),
      undefined,
    );
    if (!sailor || sailor.at === Infinity) break;
    const now = sailor.at;
    // The science's clock up to now: a refresh each second (when answers came), an estimate as
    // the service makes it.
    if (now - lastSum >= SUM_EVERY_S && outcome.answers > summedAnswers) {
      await science.sum();
      summedAnswers = outcome.answers;
      lastSum = now;
    }
    if (now - lastEstimate >= ESTIMATE_EVERY_S) {
      lastEstimate = now;
      const answers = await science.answers();
      if (answers >= Math.max(100, answersAtEstimate * (1 + ESTIMATE_GROWTH)) && answers > answersAtEstimate) {
        await science.estimate();
        outcome.estimates += 1;
        answersAtEstimate = answers;
      }
    }
    if (sailor.quest === null || sailor.current === null) {
      if (!(await nextQuest(sailor))) {
        end(sailor, now);
        continue;
      }
    }
    await answerOne(sailor);
    sailor.at = now + sailor.pace * (0.75 + 0.5 * sailor.random());
    if (sailor.current === null) sailor.quest = null;
  }
  await science.sum();
  return outcome;
}

export interface VoyageAccuracy {
  /** Share of the course's targets whose Dawid–Skene consensus is the truth (no answer: wrong). */
  galaxyType: number;
  interaction: number;
  targets: number;
}

/** The consensus of every target of the course against its truth, read as the export reads it. */
export async function voyageAccuracy(db: Kysely<Database>, course: VoyageCourse): Promise<VoyageAccuracy> {
  const { rows } = await sql<{ object_id: number; spiral: number | null; interacting: number | null }>`
    select c.object_id,
      case when c.n_spiral + c.n_elliptical > 0 then consensus_probability(c.galaxy_type_evidence, co.spiral_prior) end
        as spiral,
      case when c.n_interaction_yes + c.n_interaction_no > 0
        then consensus_probability(c.interaction_evidence, co.interaction_prior) end as interacting
    from target_consensus c join courses co on co.id = c.course_id
    where c.course_id = ${course.courseId}`.execute(db);
  const byId = new Map(rows.map((row) => [Number(row.object_id), row]));
  let galaxyType = 0;
  let interaction = 0;
  for (const target of course.targets) {
    const row = byId.get(target.object_id);
    if (row?.spiral !== null && row?.spiral !== undefined && row.spiral >= 0.5 === target.spiral) galaxyType += 1;
    if (row?.interacting !== null && row?.interacting !== undefined && row.interacting >= 0.5 === target.interacting)
      interaction += 1;
  }
  const total = course.targets.length;
  return { galaxyType: galaxyType / total, interaction: interaction / total, targets: total };
}

/** The rule the crowd sails under: five volunteers and a 99 % sure consensus on both questions. */
export const VOYAGE_RULE: RetirementRule = { min_volunteers: 5, min_confidence: 0.99, max_volunteers: null };

export interface VoyageRun {
  outcome: VoyageOutcome;
  accuracy: VoyageAccuracy;
}

/**
 * One campaign on a fresh, migrated database `db`: the course of `targets`, the thirty volunteers,
 * the app over the database answering them (its inject: the routes, schemas and hooks of the HTTP
 * API without a socket), and a last estimate before the consensus is held against the truth.
 */
export async function runVoyage(
  db: Kysely<Database>,
  { rule, arrival, targets }: { rule: RetirementRule | null; arrival: Arrival; targets: number },
): Promise<VoyageRun> {
  const app = await buildApp({
    config: loadConfig({ VAR_DIR: '/nonexistent-var', DIST_DIR: '/nonexistent-dist', RATE_LIMITS: 'off' }),
    db,
  });
  try {
    const course = await seedVoyageCourse(db, { targets });
    await setVoyageRule(db, course.courseId, rule);
    const voyagers = await createVoyagers(db, THIRTY_VOLUNTEERS);
    const api: VoyageApi = {
      async request({ method, url, cookie, body }) {
        const reply = await app.inject({ method, url, headers: { cookie }, payload: body as object | undefined });
        return { status: reply.statusCode, body: reply.body ? (reply.json() as unknown) : null };
      },
    };
    const science: VoyageScience = {
      sum: () => sumNewAnswers(db),
      estimate: () => estimateReliability(db),
      answers: async () =>
        Number(
          (
            await db
              .selectFrom('answers')
              .select((eb) => eb.fn.countAll<number>().as('count'))
              .executeTakeFirstOrThrow()
          ).count,
        ),
    };
    const outcome = await sailCourse(api, course, voyagers, science, { arrival });
    await estimateReliability(db);
    return { outcome, accuracy: await voyageAccuracy(db, course) };
  } finally {
    await app.close();
  }
}
