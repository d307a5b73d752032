// The load bench's peer (run as its own process by bench/load.ts): the calls a volunteer makes
// (log in, current quest, answers, the campaign board, notifications) answered from memory by
// Fastify, with the real server's request log (and its buffered stdout), cookie parsing and
// answer schema, and no database. Run beside the real server on the same machine, it shows what
// the HTTP layer and the bench's own client cost alone: the ceiling any database work has to fit
// under.
import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { bufferedStdoutLog, RequestLog } from '../server/app';
import { SESSION_COOKIE } from '../server/auth/session-user';
import { answerBodySchema } from '../server/routes/schemas';

/** Questions per quest, as in the small sky's areas. */
const QUESTIONS = 4;

interface FloorVolunteer {
  questId: number;
  answered: Set<number>;
  answers: number;
}

const board = [
  {
    meta: {
      id: 1,
      name: { en: 'Load bench campaign', ja: '負荷試験キャンペーン' },
      period_begin: '2026-01-01T00:00:00.000Z',
      period_end: '2027-01-01T00:00:00.000Z',
      medals: [{ count: 1000, image: 'medal.png', notch: 0, messages: { en: 'Well done', ja: 'よくできました' } }],
    },
    count: 0,
  },
];

const app = Fastify({ logger: bufferedStdoutLog().logger, logController: new RequestLog(), bodyLimit: 1024 * 1024 });
await app.register(fastifyCookie);
const sessions = new Map<string, FloorVolunteer>();
let nextQuestId = 1;

function volunteerOf(cookie: string | undefined): FloorVolunteer {
  const volunteer = cookie === undefined ? undefined : sessions.get(cookie);
  if (!volunteer) throw Object.assign(new Error('You must be logged in.'), { statusCode: 401 });
  return volunteer;
}

const questionsOf = (questId: number) =>
  Array.from({ length: QUESTIONS }, (_, index) => ({ object_id: questId * QUESTIONS + index, ra: 150, dec: 2 }));

app.get('/api/session', async () => ({ current_user: null, recommended_course: null }));

app.post('/api/session', async (_request, reply) => {
  const token = crypto.randomBytes(32).toString('base64url');
  sessions.set(token, { questId: nextQuestId++, answered: new Set(), answers: 0 });
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax' });
  return { current_user: {}, recommended_course: 'season2' };
});

app.get('/api/courses/:course_id/quests/current', async (request) => {
  const volunteer = volunteerOf(request.cookies[SESSION_COOKIE]);
  if (volunteer.answered.size === QUESTIONS) {
    volunteer.questId = nextQuestId++;
    volunteer.answered.clear();
  }
  return {
    id: volunteer.questId,
    questions: questionsOf(volunteer.questId),
    answers: [...volunteer.answered].map((object_id) => ({ object_id })),
    no_more_available_objects: false,
  };
});

app.post('/api/quests/:quest_id/answers', { schema: { body: answerBodySchema } }, async (request) => {
  const volunteer = volunteerOf(request.cookies[SESSION_COOKIE]);
  const { object_id: objectId } = request.body as { object_id: number };
  const first = !volunteer.answered.has(objectId);
  volunteer.answered.add(objectId);
  if (first) {
    volunteer.answers++;
    board[0].count++;
  }
  return { campaigns: board, new_record: false, answers_count: volunteer.answers };
});

app.get('/api/campaigns', async (request) => {
  volunteerOf(request.cookies[SESSION_COOKIE]);
  return board;
});

app.get('/api/notifications', async (request) => {
  volunteerOf(request.cookies[SESSION_COOKIE]);
  return [];
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
