// The raw answers of a course and its volunteers' reliability, as blocks of columns for the
// export writers (docs/science.md, "Raw answers"): one row per classification, in the order they
// were made (created_at, then id: a keyset on the index answers_course_created), read a block per
// COPY statement (../db/bulk-copy.ts), each volunteer a pseudonym (./pseudonyms.ts). No e-mail or
// nickname is read: the statements never touch the users table.
import { sql, type Kysely } from 'kysely';
import { withBulkSession } from '../db/bulk-copy';
import { CopyBinaryReader } from '../db/copy-binary';
import type { Database } from '../db/schema';
import { DEFAULT_ACCURACY } from './dawid-skene';
import type { ColumnBlock } from './formats/table-writer';
import { volunteerPseudonym } from './pseudonyms';

/** Answers read per statement: a block of the export. */
export const ANSWER_BLOCK_ROWS = 50_000;

const GALAXY_TYPES = ['spiral', 'elliptical', 'not_sure'];
const INTERACTIONS = ['yes', 'no', 'not_sure'];

/** Where a block of answers ends: the next one starts after it. */
export interface AnswerKey {
  createdMicroseconds: number;
  id: number;
}

/**
 * An ISO 8601 time to the millisecond (the microseconds cut, as a JavaScript Date cuts them), UTC,
 * without the zone letter (FITS's and astropy's form).
 */
const isoTime = (milliseconds: number) => new Date(milliseconds).toISOString().slice(0, 23);

/** Youden's J of two rates (the weight of docs/science.md), DEFAULT_ACCURACY's for none. */
const weight = (sensitivity: number, specificity: number) =>
  Number.isNaN(sensitivity) ? 2 * DEFAULT_ACCURACY - 1 : Math.max(0, sensitivity + specificity - 1);

export async function countAnswers(db: Kysely<Database>, courseId: string): Promise<number> {
  const row = await db
    .selectFrom('answers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The course's answers after `after` (all from the first when undefined), at most `limit`. */
export async function answerBlock(
  db: Kysely<Database>,
  courseId: string,
  secret: Buffer,
  after: AnswerKey | undefined,
  limit = ANSWER_BLOCK_ROWS,
): Promise<{ block: ColumnBlock; last: AnswerKey | undefined }> {
  const course = courseId.replace(/'/g, "''");
  const from = after
    ? `and (a.created_at, a.id) > (timestamptz 'epoch' + ${Math.floor(after.createdMicroseconds)} * interval '1 microsecond', ${Math.floor(after.id)})`
    : '';
  const bytes = await withBulkSession(db, (session) =>
    session.copyOut(`
      select a.id, (extract(epoch from a.created_at) * 1000000)::int8, (extract(epoch from a.updated_at) * 1000000)::int8,
        a.object_id, it.source_id, it.name, a.user_id,
        (case a.galaxy_type when 'spiral' then 0 when 'elliptical' then 1 else 2 end)::int2,
        (case a.interaction when 'yes' then 0 when 'no' then 1 else 2 end)::int2,
        a.ring, a.fan, a.tail, a.distorted,
        vr.galaxy_type_sensitivity, vr.galaxy_type_specificity, vr.interaction_sensitivity, vr.interaction_specificity
      from answers a
      left join imported_targets it on it.object_id = a.object_id
      left join volunteer_reliability vr on vr.user_id = a.user_id
      where a.course_id = '${course}' ${from}
      order by a.created_at, a.id
      limit ${Math.floor(limit)}`),
  );
  const objectIds: number[] = [];
  const ids: number[] = [];
  const names: (string | null)[] = [];
  const volunteers: (string | null)[] = [];
  const types: string[] = [];
  const interactions: string[] = [];
  const features: number[][] = [[], [], [], []];
  const answeredAt: string[] = [];
  const firstAnsweredAt: string[] = [];
  const typeWeights: number[] = [];
  const interactionWeights: number[] = [];
  const pseudonyms = new Map<number, string>();
  let last: AnswerKey | undefined;
  const reader = new CopyBinaryReader(bytes);
  while (reader.tuple() >= 0) {
    const id = reader.integer();
    const created = reader.integer();
    last = { createdMicroseconds: created, id };
    const updated = reader.integer();
    objectIds.push(reader.integer());
    ids.push(reader.integer());
    names.push(reader.text());
    const user = reader.integer();
    let pseudonym: string | null = null;
    if (!Number.isNaN(user)) {
      pseudonym = pseudonyms.get(user) ?? volunteerPseudonym(secret, user);
      pseudonyms.set(user, pseudonym);
    }
    volunteers.push(pseudonym);
    types.push(GALAXY_TYPES[reader.integer()]!);
    interactions.push(INTERACTIONS[reader.integer()]!);
    for (const feature of features) feature.push(reader.boolean() ? 1 : 0);
    const [gs, gp, is, ip] = [reader.float8(), reader.float8(), reader.float8(), reader.float8()];
    typeWeights.push(weight(gs, gp));
    interactionWeights.push(weight(is, ip));
    answeredAt.push(isoTime(Math.floor(updated / 1000)));
    firstAnsweredAt.push(isoTime(Math.floor(created / 1000)));
  }
  return {
    block: {
      length: objectIds.length,
      columns: {
        object_id: Float64Array.from(objectIds),
        id: Float64Array.from(ids),
        name: names,
        volunteer: volunteers,
        galaxy_type: types,
        interaction: interactions,
        ring: Uint8Array.from(features[0]!),
        fan: Uint8Array.from(features[1]!),
        tail: Uint8Array.from(features[2]!),
        distorted: Uint8Array.from(features[3]!),
        answered_at: answeredAt,
        first_answered_at: firstAnsweredAt,
        galaxy_type_weight: Float64Array.from(typeWeights),
        interaction_weight: Float64Array.from(interactionWeights),
      },
    },
    last,
  };
}

/**
 * Every volunteer who answered in the course, with the rates estimated for them, in the order of
 * their pseudonyms (not of their accounts'): one block, as long as the course has volunteers.
 */
export async function volunteerBlock(db: Kysely<Database>, courseId: string, secret: Buffer): Promise<ColumnBlock> {
  const { rows } = await sql<{
    user_id: number;
    answers: number;
    gs: number | null;
    gp: number | null;
    is: number | null;
    ip: number | null;
    galaxy_type_answers: number | null;
    interaction_answers: number | null;
    estimated_at: Date | null;
  }>`
    select c.user_id, c.answers_count as answers, vr.galaxy_type_sensitivity as gs, vr.galaxy_type_specificity as gp,
      vr.interaction_sensitivity as "is", vr.interaction_specificity as ip, vr.galaxy_type_answers,
      vr.interaction_answers, vr.estimated_at
    from course_answer_counts c left join volunteer_reliability vr on vr.user_id = c.user_id
    where c.course_id = ${courseId} and c.answers_count > 0`.execute(db);
  const sorted = rows
    .map((row) => ({ ...row, pseudonym: volunteerPseudonym(secret, Number(row.user_id)) }))
    .sort((a, b) => (a.pseudonym < b.pseudonym ? -1 : a.pseudonym > b.pseudonym ? 1 : 0));
  const rate = (value: number | null) => (value === null ? NaN : value);
  return {
    length: sorted.length,
    columns: {
      volunteer: sorted.map((row) => row.pseudonym),
      answers: Int32Array.from(sorted, (row) => Number(row.answers)),
      galaxy_type_sensitivity: Float64Array.from(sorted, (row) => rate(row.gs)),
      galaxy_type_specificity: Float64Array.from(sorted, (row) => rate(row.gp)),
      interaction_sensitivity: Float64Array.from(sorted, (row) => rate(row.is)),
      interaction_specificity: Float64Array.from(sorted, (row) => rate(row.ip)),
      galaxy_type_weight: Float64Array.from(sorted, (row) => weight(rate(row.gs), rate(row.gp))),
      interaction_weight: Float64Array.from(sorted, (row) => weight(rate(row.is), rate(row.ip))),
      galaxy_type_answers: Int32Array.from(sorted, (row) => row.galaxy_type_answers ?? 0),
      interaction_answers: Int32Array.from(sorted, (row) => row.interaction_answers ?? 0),
      estimated_at: sorted.map((row) => (row.estimated_at ? isoTime(new Date(row.estimated_at).getTime()) : null)),
    },
  };
}
