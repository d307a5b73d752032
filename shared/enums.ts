// Enumerations of application-spec §3 and viewer-spec §3, with their numeric values.

export const GALAXY_TYPES = ['elliptical', 'spiral', 'not_sure'] as const;
export type GalaxyType = (typeof GALAXY_TYPES)[number];
/** Numeric morphology: elliptical=0, spiral=1, not_sure=2. */
export const Morphology = { elliptical: 0, spiral: 1, not_sure: 2 } as const satisfies Record<GalaxyType, number>;

export const INTERACTIONS = ['yes', 'no', 'not_sure'] as const;
export type Interaction = (typeof INTERACTIONS)[number];
/** Numeric answer: yes=0, no=1, not_sure=2. */
export const AnswerValue = { yes: 0, no: 1, not_sure: 2 } as const satisfies Record<Interaction, number>;

export const COURSE_IDS = ['training', 'season2', 'illustris', 'illustris_review', 'final_campaign'] as const;
export type CourseId = (typeof COURSE_IDS)[number];
/**
 * The form of every course id: the five above and a research group's imported courses (issue 30;
 * 2 to 40 of a-z, 0-9, '-', '_', a letter first).
 */
export const COURSE_ID_PATTERN = /^[a-z][a-z0-9_-]{1,39}$/;
/** Numeric campaign (course): training=0 … final_campaign=4; season2 is the default. */
export const Campaign = {
  training: 0,
  season2: 1,
  illustris: 2,
  illustris_review: 3,
  final_campaign: 4,
} as const satisfies Record<CourseId, number>;
export const DEFAULT_COURSE: CourseId = 'season2';
/** Courses whose quests a volunteer may delete to play again (application-spec §4: new game). */
export const NEW_GAME_COURSES = ['training', 'illustris_review'] as const satisfies readonly CourseId[];

export const LEVEL_TYPES = ['regular', 'greed', 'tunnel_effect'] as const;
export type LevelType = (typeof LEVEL_TYPES)[number];
/** regular=0, greed=1, tunnel_effect=2; a quest's type is its level's. */
export const QuestType = { regular: 0, greed: 1, tunnel_effect: 2 } as const satisfies Record<LevelType, number>;

export const LEVEL_STATUSES = ['locked', 'active', 'unlocked'] as const;
export type LevelStatus = (typeof LEVEL_STATUSES)[number];
