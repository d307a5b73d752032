// A simulated crowd for the science (docs/science.md): a course of `targets` galaxies with a known
// truth, and volunteers whose error rates are known, some expert, some ordinary, some careless and
// some who always give the same answer. Seeded, so that a run is repeatable. Used by the science
// tests (small) and the science bench (100,000 targets and more).
import { sql, type Kysely } from 'kysely';
import { withBulkSession } from '../server/db/bulk-copy';
import { encodeCopyBinary } from '../server/db/copy-binary';
import type { Database } from '../server/db/schema';

/** mulberry32: a small seeded generator, enough for a simulation. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type VolunteerKind = 'expert' | 'ordinary' | 'careless' | 'constant';

export interface SimulatedVolunteer {
  id: number;
  kind: VolunteerKind;
  /** P(says spiral | spiral), P(says elliptical | elliptical), and the same for interaction. */
  galaxy_type_sensitivity: number;
  galaxy_type_specificity: number;
  interaction_sensitivity: number;
  interaction_specificity: number;
}

/** The error rate of each kind; a constant volunteer says spiral and no to everything. */
export const CROWD_KINDS: { kind: VolunteerKind; share: number; error: number }[] = [
  { kind: 'expert', share: 0.15, error: 0.05 },
  { kind: 'ordinary', share: 0.5, error: 0.2 },
  { kind: 'careless', share: 0.25, error: 0.4 },
  { kind: 'constant', share: 0.1, error: 0 },
];

export interface CrowdTarget {
  object_id: number;
  spiral: boolean;
  interacting: boolean;
}

export interface Crowd {
  courseId: string;
  targets: CrowdTarget[];
  volunteers: SimulatedVolunteer[];
  /** The seed it was drawn from. */
  seed: number;
  random: () => number;
}

export const CROWD_COURSE = 'crowd';
const FIRST_OBJECT_ID = 900_000_000_000;
const TARGETS_PER_AREA = 1000;
/** Level and area ids far from the sky catalogue's (which numbers them from 1). */
const CROWD_LEVEL_ID = 900_000;

/** Inserts `rows` in statements of `size` rows. */
async function inChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += size) await insert(rows.slice(start, start + size));
}

/** The course, its targets (truth: 60 % spiral, 30 % interacting) and its volunteers. */
export async function seedCrowd(
  db: Kysely<Database>,
  {
    targets: targetCount,
    volunteers: volunteerCount,
    seed = 1,
  }: { targets: number; volunteers: number; seed?: number },
): Promise<Crowd> {
  const random = seededRandom(seed);
  await db.insertInto('courses').values({ id: CROWD_COURSE, position: 99 }).execute();
  const level = await db
    .insertInto('levels')
    .values({
      id: CROWD_LEVEL_ID,
      course_id: CROWD_COURSE,
      position: 0,
      key: 'crowd',
      name_key: 'crowd',
      name: JSON.stringify({ en: 'Simulated crowd', ja: 'シミュレーション' }),
      type: 'regular',
      depth: 'wide',
      survey: 'wide',
      labels: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const areaCount = Math.ceil(targetCount / TARGETS_PER_AREA);
  const areas = await db
    .insertInto('areas')
    .values(
      Array.from({ length: areaCount }, (_, position) => ({
        id: CROWD_LEVEL_ID * 1000 + position,
        level_id: level.id,
        position,
        outlines: '[]',
        center_ra: (position * 7.3) % 360,
        center_dec: 0,
      })),
    )
    .returning('id')
    .execute();
  const targets: CrowdTarget[] = Array.from({ length: targetCount }, (_, index) => ({
    object_id: FIRST_OBJECT_ID + index,
    spiral: random() < 0.6,
    interacting: random() < 0.3,
  }));
  // The targets by COPY (a million of them in seconds), their positions drawn in order.
  for (let first = 0; first < targetCount; first += 50_000) {
    const chunk = targets.slice(first, first + 50_000);
    const index = (target: CrowdTarget) => target.object_id - FIRST_OBJECT_ID;
    // Drawn target by target, right ascension then declination.
    const positions = chunk.map(() => [random() * 360, Math.asin(2 * random() - 1) * (180 / Math.PI)] as const);
    const rows = encodeCopyBinary(
      [
        { type: 'int8', values: chunk.map((target) => target.object_id) },
        { type: 'int4', values: chunk.map((target) => areas[Math.floor(index(target) / TARGETS_PER_AREA)]!.id) },
        { type: 'int4', values: chunk.map((target) => index(target) % TARGETS_PER_AREA) },
        { type: 'float8', values: positions.map(([ra]) => ra) },
        { type: 'float8', values: positions.map(([, dec]) => dec) },
        { type: 'text', values: chunk.map((target) => (target.spiral ? 'spiral' : 'elliptical')) },
        { type: 'text', values: chunk.map((target) => (target.interacting ? 'yes' : 'no')) },
        { type: 'bool', values: chunk.map(() => false) },
        { type: 'bool', values: chunk.map(() => false) },
        { type: 'bool', values: chunk.map((target) => target.interacting) },
        { type: 'bool', values: chunk.map(() => false) },
      ],
      chunk.length,
    );
    await withBulkSession(db, (session) =>
      session.copyIn(
        'targets (object_id, area_id, position, ra, dec, galaxy_type, interaction, ring, fan, tail, distorted)',
        rows,
      ),
    );
  }
  const users: { id: number }[] = [];
  await inChunks(
    Array.from({ length: volunteerCount }, (_, index) => index),
    5000,
    async (chunk) =>
      users.push(
        ...(await db
          .insertInto('users')
          .values(
            chunk.map((index) => ({
              email: `crowd${index}@crowd.example.org`,
              nickname: `crowd${index}`,
              locale: 'en',
              password_hash: null,
            })),
          )
          .returning('id')
          .execute()),
      ),
  );
  const volunteers = users.map(({ id }, index): SimulatedVolunteer => {
    let share = index / volunteerCount;
    const kind = CROWD_KINDS.find((candidate) => (share -= candidate.share) < 0) ?? CROWD_KINDS[0]!;
    if (kind.kind === 'constant')
      return {
        id,
        kind: 'constant',
        galaxy_type_sensitivity: 1,
        galaxy_type_specificity: 0,
        interaction_sensitivity: 0,
        interaction_specificity: 1,
      };
    const rate = 1 - kind.error;
    return {
      id,
      kind: kind.kind,
      galaxy_type_sensitivity: rate,
      galaxy_type_specificity: rate,
      interaction_sensitivity: rate,
      interaction_specificity: rate,
    };
  });
  return { courseId: CROWD_COURSE, targets, volunteers, seed, random };
}

/** The answer a volunteer gives a target, drawn from its rates. */
function answer(volunteer: SimulatedVolunteer, target: CrowdTarget, random: () => number) {
  const spiral = target.spiral
    ? random() < volunteer.galaxy_type_sensitivity
    : random() >= volunteer.galaxy_type_specificity;
  const interacting = target.interacting
    ? random() < volunteer.interaction_sensitivity
    : random() >= volunteer.interaction_specificity;
  return {
    galaxy_type: spiral ? ('spiral' as const) : ('elliptical' as const),
    interaction: interacting ? ('yes' as const) : ('no' as const),
    tail: interacting && target.interacting,
  };
}

/** murmur3's finalizer: a 32-bit value whose every bit depends on every bit of `value`. */
function mix32(value: number): number {
  let hash = value >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * A generator of its own for each vote of each target of the crowd (`vote`: the votes the target
 * had before it): whichever campaign asks for a target's `vote`-th vote gets it from the same
 * volunteer with the same answer, so that campaigns on the same crowd differ only in the votes
 * they ask for, not in the luck of the draw.
 */
export function voteRandom(crowd: Crowd): (target: CrowdTarget, vote: number) => () => number {
  return (target, vote) => seededRandom(mix32(mix32(mix32(crowd.seed) ^ (target.object_id - FIRST_OBJECT_ID)) ^ vote));
}

/**
 * One more vote for each of `targets`, from a volunteer (drawn at random) who has not answered it
 * yet. `answered` remembers who answered what. The draws come from the crowd's generator, or from
 * `random`'s for each target and vote (voteRandom). Returns the number of answers written.
 */
export async function addVotes(
  db: Kysely<Database>,
  crowd: Crowd,
  targets: readonly CrowdTarget[],
  answered: Map<number, Set<number>>,
  random?: (target: CrowdTarget, vote: number) => () => number,
): Promise<number> {
  const rows = [];
  for (const target of targets) {
    const seen = answered.get(target.object_id) ?? new Set<number>();
    answered.set(target.object_id, seen);
    if (seen.size >= crowd.volunteers.length) continue;
    const draw = random ? random(target, seen.size) : crowd.random;
    let volunteer: SimulatedVolunteer;
    do volunteer = crowd.volunteers[Math.floor(draw() * crowd.volunteers.length)]!;
    while (seen.has(volunteer.id));
    seen.add(volunteer.id);
    const given = answer(volunteer, target, draw);
    rows.push({
      user_id: volunteer.id,
      quest_id: null,
      object_id: target.object_id,
      course_id: crowd.courseId,
      galaxy_type: given.galaxy_type,
      interaction: given.interaction,
      ring: false,
      fan: false,
      tail: given.tail,
      distorted: false,
    });
  }
  await inChunks(rows, 5000, (chunk) => db.insertInto('answers').values(chunk).execute());
  return rows.length;
}

/**
 * `votes` answers for every target of the crowd, each from a different volunteer drawn at random,
 * written with COPY with the answers' triggers off and the per-course answer counts filled after:
 * a campaign's millions of answers in minutes, for the bench. The science log stays empty (the
 * answers are as if summed long ago: the estimate writes every target's sums). Returns the
 * number of answers written.
 */
export async function copyVotes(
  db: Kysely<Database>,
  crowd: Crowd,
  votes: number,
  log: (line: string) => void = () => undefined,
): Promise<number> {
  if (votes > crowd.volunteers.length) throw new Error(`${votes} votes need as many volunteers`);
  const perCopy = Math.max(1, Math.floor(500_000 / votes));
  let written = 0;
  await sql`alter table answers disable trigger user`.execute(db);
  try {
    for (let first = 0; first < crowd.targets.length; first += perCopy) {
      const users: number[] = [];
      const objects: number[] = [];
      const types: string[] = [];
      const interactions: string[] = [];
      const tails: boolean[] = [];
      for (const target of crowd.targets.slice(first, first + perCopy)) {
        const chosen = new Set<number>();
        while (chosen.size < votes) chosen.add(Math.floor(crowd.random() * crowd.volunteers.length));
        for (const index of chosen) {
          const given = answer(crowd.volunteers[index]!, target, crowd.random);
          users.push(crowd.volunteers[index]!.id);
          objects.push(target.object_id);
          types.push(given.galaxy_type);
          interactions.push(given.interaction);
          tails.push(given.tail);
        }
      }
      const none = users.map(() => false);
      const rows = encodeCopyBinary(
        [
          { type: 'int8', values: users },
          { type: 'int8', values: objects },
          { type: 'text', values: users.map(() => crowd.courseId) },
          { type: 'text', values: types },
          { type: 'text', values: interactions },
          { type: 'bool', values: none },
          { type: 'bool', values: none },
          { type: 'bool', values: tails },
          { type: 'bool', values: none },
        ],
        users.length,
      );
      await withBulkSession(db, (session) =>
        session.copyIn(
          'answers (user_id, object_id, course_id, galaxy_type, interaction, ring, fan, tail, distorted)',
          rows,
        ),
      );
      written += users.length;
      log(`${written} answers`);
    }
  } finally {
    await sql`alter table answers enable trigger user`.execute(db);
  }
  await sql`insert into course_answer_counts (user_id, course_id, answers_count)
    select user_id, course_id, count(*) from answers where course_id = ${crowd.courseId} group by user_id, course_id
    on conflict (user_id, course_id) do update set answers_count = excluded.answers_count`.execute(db);
  return written;
}

export interface CrowdAccuracy {
  /** Share of targets whose Dawid–Skene consensus galaxy_type is the truth. */
  weighted: number;
  /** Share whose raw majority (spiral against elliptical votes; a tie is half right) is the truth. */
  raw: number;
  weightedInteraction: number;
  rawInteraction: number;
  targets: number;
}

/** The consensus against the truth over the crowd's course, read as the export reads it. */
export async function crowdAccuracy(db: Kysely<Database>, courseId = CROWD_COURSE): Promise<CrowdAccuracy> {
  const row = await sql<{
    weighted: number;
    raw: number;
    weighted_interaction: number;
    raw_interaction: number;
    targets: number;
  }>`
    select
      avg(case when (consensus_probability(c.galaxy_type_evidence, co.spiral_prior) >= 0.5) = (t.galaxy_type = 'spiral')
        then 1.0 else 0.0 end) as weighted,
      avg(case when c.n_spiral = c.n_elliptical then 0.5
        when (c.n_spiral > c.n_elliptical) = (t.galaxy_type = 'spiral') then 1.0 else 0.0 end) as raw,
      avg(case when (consensus_probability(c.interaction_evidence, co.interaction_prior) >= 0.5) = (t.interaction = 'yes')
        then 1.0 else 0.0 end) as weighted_interaction,
      avg(case when c.n_interaction_yes = c.n_interaction_no then 0.5
        when (c.n_interaction_yes > c.n_interaction_no) = (t.interaction = 'yes') then 1.0 else 0.0 end) as raw_interaction,
      count(*) as targets
    from target_consensus c
    join targets t on t.object_id = c.object_id
    join courses co on co.id = c.course_id
    where c.course_id = ${courseId}`.execute(db);
  const result = row.rows[0]!;
  return {
    weighted: Number(result.weighted),
    raw: Number(result.raw),
    weightedInteraction: Number(result.weighted_interaction),
    rawInteraction: Number(result.raw_interaction),
    targets: Number(result.targets),
  };
}

/** The targets of the crowd's course whose weighted consensus is not the truth, on each question. */
export interface WrongTargets {
  galaxyType: number[];
  interaction: number[];
}

export async function wrongTargets(db: Kysely<Database>, courseId = CROWD_COURSE): Promise<WrongTargets> {
  const { rows } = await sql<{ object_id: number; galaxy_type: boolean; interaction: boolean }>`
    select c.object_id,
      (consensus_probability(c.galaxy_type_evidence, co.spiral_prior) >= 0.5) <> (t.galaxy_type = 'spiral')
        as galaxy_type,
      (consensus_probability(c.interaction_evidence, co.interaction_prior) >= 0.5) <> (t.interaction = 'yes')
        as interaction
    from target_consensus c
    join targets t on t.object_id = c.object_id
    join courses co on co.id = c.course_id
    where c.course_id = ${courseId}`.execute(db);
  return {
    galaxyType: rows.filter((row) => row.galaxy_type).map((row) => Number(row.object_id)),
    interaction: rows.filter((row) => row.interaction).map((row) => Number(row.object_id)),
  };
}

export interface RetirementRule {
  min_volunteers: number | null;
  min_confidence: number | null;
  max_volunteers: number | null;
}

export interface CampaignOutcome {
  classifications: number;
  retired: number;
  accuracy: CrowdAccuracy;
  /** At the end. */
  wrong: WrongTargets;
  /** With `curve`: the accuracy after each round from the calibration on, re-estimated each time. */
  curve: { votes: number; classifications: number; accuracy: CrowdAccuracy }[];
}

/**
 * A campaign on the crowd's course as a project would run it: every target gets `calibration`
 * votes, the volunteers' reliability is estimated, then each round gives one more vote to every
 * target still open (not retired by `rule`; with no rule, every target) until each has had
 * `votes`, the reliability estimated again before each round as the server does once the answers
 * have grown by 5 % (each round adds more than that); a last estimate, and the consensus is held
 * against the truth. A target's votes are drawn by voteRandom: the campaigns on one crowd, with
 * and without a rule, give it the same votes in the same order.
 */
export async function runCampaign(
  db: Kysely<Database>,
  crowd: Crowd,
  {
    votes,
    calibration = 3,
    rule,
    curve = false,
  }: { votes: number; calibration?: number; rule?: RetirementRule; curve?: boolean },
  estimate: (db: Kysely<Database>) => Promise<unknown>,
  drain: (db: Kysely<Database>) => Promise<unknown>,
): Promise<CampaignOutcome> {
  await db
    .updateTable('courses')
    .set({
      retire_min_volunteers: rule?.min_volunteers ?? null,
      retire_min_confidence: rule?.min_confidence ?? null,
      retire_max_volunteers: rule?.max_volunteers ?? null,
    })
    .where('id', '=', crowd.courseId)
    .execute();
  const answered = new Map<number, Set<number>>();
  const random = voteRandom(crowd);
  const points: CampaignOutcome['curve'] = [];
  let classifications = 0;
  for (let round = 0; round < votes; round += 1) {
    if (round >= calibration) await estimate(db);
    if (curve && round >= calibration)
      points.push({ votes: round, classifications, accuracy: await crowdAccuracy(db, crowd.courseId) });
    const retired = new Set(
      (
        await db.selectFrom('retired_targets').select('object_id').where('course_id', '=', crowd.courseId).execute()
      ).map((row) => Number(row.object_id)),
    );
    const open = crowd.targets.filter((target) => !retired.has(target.object_id));
    if (open.length === 0) break;
    classifications += await addVotes(db, crowd, open, answered, random);
    await drain(db);
  }
  await estimate(db);
  const retired = await db
    .selectFrom('retired_targets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('course_id', '=', crowd.courseId)
    .executeTakeFirstOrThrow();
  const accuracy = await crowdAccuracy(db, crowd.courseId);
  if (curve) points.push({ votes, classifications, accuracy });
  return {
    classifications,
    retired: Number(retired.count),
    accuracy,
    wrong: await wrongTargets(db, crowd.courseId),
    curve: points,
  };
}

/**
 * What retirement saved, at equal accuracy: the classifications the campaign without a rule had
 * made when its consensus first was right as often as the campaign with the rule at its end, on
 * both questions (galaxy_type and interaction, weighted), against those the campaign with the
 * rule took. Undefined when no point of the curve reached it (the rule did better than every
 * campaign without one of that length).
 */
export function retirementSaving(without: CampaignOutcome, withRule: CampaignOutcome) {
  const reached = without.curve.find(
    (point) =>
      point.accuracy.weighted >= withRule.accuracy.weighted &&
      point.accuracy.weightedInteraction >= withRule.accuracy.weightedInteraction,
  );
  if (!reached) return undefined;
  return {
    votes: reached.votes,
    classifications: reached.classifications,
    saving: 1 - withRule.classifications / reached.classifications,
  };
}

/**
 * The targets a rule's campaigns got wrong that the campaigns without a rule on the same crowds
 * got right (`worse`), and the reverse (`better`), on each question, over every crowd.
 */
export function wrongTargetChanges(campaigns: readonly { without: CampaignOutcome; withRule: CampaignOutcome }[]) {
  const changes = { galaxyType: { worse: 0, better: 0 }, interaction: { worse: 0, better: 0 } };
  for (const question of ['galaxyType', 'interaction'] as const) {
    for (const { without, withRule } of campaigns) {
      const before = new Set(without.wrong[question]);
      const after = new Set(withRule.wrong[question]);
      changes[question].worse += [...after].filter((id) => !before.has(id)).length;
      changes[question].better += [...before].filter((id) => !after.has(id)).length;
    }
  }
  return changes;
}

/**
 * Whether a rule lost accuracy against the whole campaigns without one (wrongTargetChanges): on
 * either question, the targets it got wrong that were right without it outnumber the reverse by
 * more than two standard deviations of that difference were the two campaigns as good as each
 * other (McNemar's test: 2√(worse + better)). With the same votes in both campaigns a target
 * changes only where the rule stopped its votes or the reliability estimated from fewer answers
 * weighed its votes otherwise; a few of those go either way on any crowd.
 */
export function accuracyLost(campaigns: readonly { without: CampaignOutcome; withRule: CampaignOutcome }[]): boolean {
  return Object.values(wrongTargetChanges(campaigns)).some(
    ({ worse, better }) => worse - better > 2 * Math.sqrt(worse + better),
  );
}
