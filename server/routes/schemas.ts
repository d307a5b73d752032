// JSON schemas shared by the routes, and the one rule schemas cannot express alone: a course id
// that is neither one of the five nor a course `galaxy-cruise import` wrote into the courses
// table is a resource that does not exist (404), while any other invalid parameter is a bad
// request (400). Every string that may reach the database is a `text`, and
// every integer is held to its column's range: a value the column cannot hold is the client's
// error (400), not a database error (500). A route's path parameters take their schemas from
// here alone (pathParameters); server/plugins/path-parameters.ts refuses, when the route is
// registered, a path parameter that does not.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { RANKING_PERIODS } from '../../shared/api';
import { COURSE_ID_PATTERN, COURSE_IDS, GALAXY_TYPES, INTERACTIONS } from '../../shared/enums';
import type { Database } from '../db/schema';
import { HttpError } from '../http-error';

/**
 * A string PostgreSQL can store: its text and jsonb types cannot hold NUL (U+0000), so a string
 * with one would be refused by the database.
 */
export function text(maxLength: number) {
  return { type: 'string', maxLength, pattern: '^[^\\u0000]*$' } as const;
}

/** The range of a PostgreSQL smallint column. */
export const int2Schema = { type: 'integer', minimum: -32_768, maximum: 32_767 } as const;
/** The range of a PostgreSQL integer column. */
export const int4Schema = { type: 'integer', minimum: -2_147_483_648, maximum: 2_147_483_647 } as const;

/** One of the five courses or an imported one's id; requireCourse then asks the courses table. */
export const courseIdSchema = { type: 'string', pattern: COURSE_ID_PATTERN.source } as const;

function unknownCourse(value: unknown): HttpError {
  return new HttpError(404, `Unknown course '${String(value)}': courses are ${COURSE_IDS.join(', ')}.`);
}

/** int4 ids (levels, areas): larger numbers would be a database range error, not a 404. */
export const int4IdSchema = { type: 'integer', minimum: 1, maximum: 2_147_483_647 } as const;
/** bigint ids (quests, objects, notifications), kept below 2^53 so that they stay exact JSON numbers. */
export const int8IdSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/**
 * The longest path parameter the router takes, in UTF-16 units after percent-decoding (Fastify's
 * maxParamLength, its default): a longer one is answered 414 before any route runs. A nickname
 * (at most 32 code points) fits, as typed or as kept.
 */
export const PATH_PARAMETER_MAX_LENGTH = 100;

/** GET /api/nicknames/{nickname}: any text a volunteer may type (the §5 rules are PUT's). */
export const nicknameParameterSchema = text(PATH_PARAMETER_MAX_LENGTH);

/** GET /api/courses/{course_id}/rankings/{period}. */
export const rankingPeriodSchema = { type: 'string', enum: [...RANKING_PERIODS] } as const;

/** The schemas a path parameter may have: each keeps NUL, lone surrogates and long values out. */
export const PATH_PARAMETER_SCHEMAS: ReadonlySet<object> = new Set<object>([
  courseIdSchema,
  int4IdSchema,
  int8IdSchema,
  nicknameParameterSchema,
  rankingPeriodSchema,
]);

/** A route's `params` schema: every parameter required, no other, each a shared schema above. */
export function pathParameters<Properties extends Record<string, object>>(properties: Properties) {
  return {
    type: 'object',
    required: Object.keys(properties) as (keyof Properties & string)[],
    additionalProperties: false,
    properties,
  } as const;
}

/** POST /api/quests/{quest_id}/answers: one classification; fields left out take their defaults. */
export const answerBodySchema = {
  type: 'object',
  required: ['object_id'],
  additionalProperties: false,
  properties: {
    object_id: int8IdSchema,
    galaxy_type: { type: 'string', enum: [...GALAXY_TYPES], default: 'not_sure' },
    interaction: { type: 'string', enum: [...INTERACTIONS], default: 'not_sure' },
    ring: { type: 'boolean', default: false },
    fan: { type: 'boolean', default: false },
    tail: { type: 'boolean', default: false },
    distorted: { type: 'boolean', default: false },
  },
} as const;

/**
 * For routes registered with attachValidation: a course_id of no course's form is 404 "Unknown course",
 * anything else the validation error itself (400). Runs after requireUser, so a guest gets 401
 * whatever the parameters.
 */
export function throwValidationError(request: FastifyRequest): void {
  const error = request.validationError;
  if (!error) return;
  const issues = (error.validation ?? []) as { instancePath: string; keyword: string }[];
  const badCourse = issues.find((issue) => issue.instancePath === '/course_id' && issue.keyword === 'pattern');
  if (badCourse) {
    const source = error.validationContext === 'querystring' ? request.query : request.params;
    throw unknownCourse((source as Record<string, unknown> | undefined)?.course_id);
  }
  throw error;
}

/**
 * After throwValidationError: a course id beyond the five must be an imported course of the
 * courses table, else 404 "Unknown course" as for any other id. `sailing`: the volunteer would
 * sail it (a quest), which a course an administrator closed refuses (403). The five need no
 * read: they exist whether or not a catalogue was seeded.
 */
export async function requireCourse(
  db: Kysely<Database>,
  courseId: string,
  { sailing = false }: { sailing?: boolean } = {},
): Promise<void> {
  if ((COURSE_IDS as readonly string[]).includes(courseId)) return;
  const course = await db
    .selectFrom('courses')
    .select('open')
    .where('id', '=', courseId)
    .where('imported', '=', true)
    .executeTakeFirst();
  if (!course) throw unknownCourse(courseId);
  if (sailing && !course.open) throw new HttpError(403, `Course '${courseId}' is closed.`);
}
