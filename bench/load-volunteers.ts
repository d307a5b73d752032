// The load bench's simulated volunteers: each logs in, fetches its current quest, answers its
// questions one after the other (re-posting earlier answers once the course is exhausted), polls
// GET /api/campaigns each second and GET /api/notifications each minute. Every call is timed into
// a Recorder; every acknowledged answer is remembered with its values, to be found in the
// database after the run.
import type { Morphology } from '../shared/catalogue';
import { GALAXY_TYPES, INTERACTIONS } from '../shared/enums';
import type { Client, Reply } from './load-client';

/** The password of every volunteer the bench creates. */
export const PASSWORD = 'load-bench-password';

/** A volunteer's calls in flight at once: an answer post and its two polls. */
export const CONNECTIONS_PER_VOLUNTEER = 3;

export interface Volunteer {
  id: number;
  email: string;
  cookie: string;
  questId: number | null;
  /** Questions of the current quest not yet answered in this run. */
  pending: number[];
  /** Every object answered, with its quest: re-posted in turn once the course is exhausted. */
  answered: { objectId: number; questId: number }[];
  replay: number;
  exhausted: boolean;
  counter: number;
}

export function newVolunteer({ id, email }: { id: number; email: string }): Volunteer {
  return { id, email, cookie: '', questId: null, pending: [], answered: [], replay: 0, exhausted: false, counter: 0 };
}

export type AnswerValues = Morphology;

/** Acknowledged answers by 'userId:objectId', with the values of the last acknowledged post. */
export type Acknowledged = Map<string, AnswerValues>;

/** A different answer for each post number, so that a re-post is distinguishable from the last. */
function answerValues(counter: number): AnswerValues {
  const bits = Math.floor(counter / 9) % 16;
  return {
    galaxy_type: GALAXY_TYPES[counter % 3],
    interaction: INTERACTIONS[Math.floor(counter / 3) % 3],
    ring: (bits & 1) !== 0,
    fan: (bits & 2) !== 0,
    tail: (bits & 4) !== 0,
    distorted: (bits & 8) !== 0,
  };
}

/** The latencies and errors of one stretch of a run (the set-up, the warm-up or the window). */
export class Recorder {
  answerMs: number[] = [];
  /** When each answer post was sent (performance.now()), beside answerMs, for LOAD_KEEP_LOG. */
  answerSentAt: number[] = [];
  newAnswerMs: number[] = [];
  replacedMs: number[] = [];
  /** When the latest first answer was acknowledged (performance.now()), and the answers by then. */
  lastNewAnswerAt = 0;
  answersByLastNewAnswer = 0;
  allMs: number[] = [];
  errors = 0;
  samples: string[] = [];

  error(what: string) {
    this.errors++;
    if (this.samples.length < 5) this.samples.push(what);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A setup step (outside the window) for each volunteer, 8 at a time: quick, without a burst. */
async function inSetupGroups(volunteers: Volunteer[], step: (volunteer: Volunteer) => Promise<void>): Promise<void> {
  for (let start = 0; start < volunteers.length; start += 8)
    await Promise.all(volunteers.slice(start, start + 8).map(step));
}

async function timed(
  client: Client,
  recorder: Recorder,
  method: string,
  url: string,
  options: { body?: unknown; cookie?: string },
): Promise<{ reply: Reply | null; ms: number }> {
  const start = performance.now();
  try {
    const reply = await client.request(method, url, options);
    const ms = performance.now() - start;
    recorder.allMs.push(ms);
    if (reply.status < 200 || reply.status >= 300) {
      recorder.error(`${method} ${url}: ${reply.status} ${reply.body.slice(0, 200)}`);
      return { reply: null, ms };
    }
    return { reply, ms };
  } catch (error) {
    const ms = performance.now() - start;
    recorder.allMs.push(ms);
    recorder.error(`${method} ${url}: ${(error as Error).message}`);
    return { reply: null, ms };
  }
}

async function fetchQuest(client: Client, recorder: Recorder, volunteer: Volunteer): Promise<boolean> {
  const { reply } = await timed(client, recorder, 'GET', '/api/courses/season2/quests/current', {
    cookie: volunteer.cookie,
  });
  if (!reply) return false;
  const quest = JSON.parse(reply.body) as {
    id: number | null;
    questions: { object_id: number }[];
    answers: { object_id: number }[];
    no_more_available_objects: boolean;
  };
  if (quest.no_more_available_objects || quest.id === null) {
    volunteer.exhausted = true;
    volunteer.questId = null;
    volunteer.pending = [];
    return true;
  }
  const done = new Set(quest.answers.map((answer) => answer.object_id));
  volunteer.questId = quest.id;
  volunteer.pending = quest.questions.map((question) => question.object_id).filter((id) => !done.has(id));
  return true;
}

/**
 * Posts the volunteer's next answer: the next question of its quest or, once the course is
 * exhausted, an earlier answer again. null: the call failed (recorded); 'nothing': nothing to post.
 */
async function postNextAnswer(
  client: Client,
  recorder: Recorder,
  volunteer: Volunteer,
  acknowledged: Acknowledged,
): Promise<{ ms: number; first: boolean } | null | 'nothing'> {
  let objectId: number;
  let questId: number;
  const first = volunteer.pending.length > 0;
  if (first) {
    objectId = volunteer.pending[0];
    questId = volunteer.questId!;
  } else {
    if (volunteer.answered.length === 0) return 'nothing';
    const replay = volunteer.answered[volunteer.replay++ % volunteer.answered.length];
    objectId = replay.objectId;
    questId = replay.questId;
  }
  const values = answerValues(volunteer.counter++);
  const { reply, ms } = await timed(client, recorder, 'POST', `/api/quests/${questId}/answers`, {
    cookie: volunteer.cookie,
    body: { object_id: objectId, ...values },
  });
  if (!reply) return null;
  acknowledged.set(`${volunteer.id}:${objectId}`, values);
  if (first) {
    volunteer.pending.shift();
    volunteer.answered.push({ objectId, questId });
  }
  return { ms, first };
}

/**
 * Before the window: every volunteer logs in and fetches its current quest, and each is left
 * partway through it. Volunteers who all opened the same first quest at the same instant would
 * finish every quest in the same slot: every quest turnover and fetch of the run within a few
 * milliseconds, once a quest, a burst that a population of independent players never makes. So
 * each answers a random number of its first questions here (outside the window like the logins,
 * and checked for loss like the rest), and their turnovers spread over a quest's length.
 */
export async function readyVolunteers(client: Client, volunteers: Volunteer[], acknowledged: Acknowledged) {
  const setup = new Recorder();
  await inSetupGroups(volunteers, async (volunteer) => {
    const reply = await client.request('POST', '/api/session', {
      body: { email: volunteer.email, password: PASSWORD },
    });
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.body}`);
    const cookies = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
    volunteer.cookie = cookies.map((cookie) => cookie.split(';')[0]).join('; ');
  });
  for (const volunteer of volunteers)
    if (!(await fetchQuest(client, setup, volunteer))) throw new Error(`no current quest: ${setup.samples[0]}`);
  await inSetupGroups(volunteers, async (volunteer) => {
    for (let left = Math.floor(Math.random() * volunteer.pending.length); left > 0; left--)
      if (!(await postNextAnswer(client, setup, volunteer, acknowledged)))
        throw new Error(`a setup answer failed: ${setup.samples[0]}`);
  });
}

export interface PlaySchedule {
  /** performance.now() times: the warm-up's start, the window's start and its end. */
  begin: number;
  start: number;
  end: number;
  /** ms between one volunteer's answer slots in a paced run; 0: closed loop. */
  interval: number;
  warmup: Recorder;
  window: Recorder;
}

/**
 * The volunteers play from `begin` until `end`: answers (closed loop or paced) and the two polls.
 * Calls before `start` are recorded in the warm-up's recorder, the rest in the window's.
 */
export function play(
  client: Client,
  volunteers: Volunteer[],
  acknowledged: Acknowledged,
  { begin, start, end, interval, warmup, window }: PlaySchedule,
): Promise<void> {
  // A paced call belongs to the warm-up or the window by its slot's time, not by when its timer
  // fired: a timer may fire a millisecond early, and a slot just past the window's end would then
  // be counted inside it.
  const recorderAt = (time: number) => (time < start ? warmup : window);

  const answerLoop = async (volunteer: Volunteer) => {
    let next = begin + Math.random() * interval;
    while (performance.now() < end) {
      let slot = performance.now();
      if (interval > 0) {
        slot = next;
        if (slot >= end) break;
        const wait = slot - performance.now();
        if (wait > 0) await sleep(wait);
        next += interval;
      }
      const current = recorderAt(slot);
      // A new quest is fetched within the same slot, before its first answer: a paced run offers
      // its rate in answers, not in calls.
      if (!volunteer.exhausted && volunteer.pending.length === 0) {
        if (!(await fetchQuest(client, current, volunteer))) continue;
        if (volunteer.pending.length === 0 && !volunteer.exhausted) continue;
      }
      const posted = await postNextAnswer(client, current, volunteer, acknowledged);
      if (posted === 'nothing') return;
      if (!posted) continue;
      current.answerMs.push(posted.ms);
      current.answerSentAt.push(performance.now() - posted.ms);
      if (posted.first) {
        current.newAnswerMs.push(posted.ms);
        current.lastNewAnswerAt = performance.now();
        current.answersByLastNewAnswer = current.answerMs.length;
      } else current.replacedMs.push(posted.ms);
    }
  };
  const poll = async (volunteer: Volunteer, url: string, everyMs: number) => {
    // A random phase: volunteers do not all poll in the same millisecond.
    let next = begin + Math.random() * everyMs;
    for (;;) {
      const wait = next - performance.now();
      if (next >= end) return;
      if (wait > 0) await sleep(wait);
      await timed(client, recorderAt(next), 'GET', url, { cookie: volunteer.cookie });
      next += everyMs;
    }
  };
  return Promise.all(
    volunteers.flatMap((volunteer) => [
      answerLoop(volunteer),
      poll(volunteer, '/api/campaigns', 1000),
      poll(volunteer, '/api/notifications', 60_000),
    ]),
  ).then(() => {});
}
