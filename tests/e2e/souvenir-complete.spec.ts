// The walk's completed souvenir (issue 33; application-spec §4, §9): a jigsaw is 56 pieces and a
// piece comes every 3 answers of a course in developer mode (the e2e server's 127.0.0.1), so the
// first souvenir takes 168 answers, more than the small sky's 32 galaxies. The volunteer's
// season 2 count is therefore set in the database to 165, as a volunteer who had answered 165
// galaxies of season 2 in this hour would have it: course_answer_counts (migration 0006, read by
// GET /api/my_records, the answer's new-record response, the gift's count, the science) and the
// rankings' counts of the current periods (0007), both of which the trigger on answers keeps, and
// the counters of the campaigns open now (0005), which the answers' insert advances.
// (Their answer rows cannot be made: answers are one per volunteer and galaxy, and the small sky
// has too few.) Then three answers given on screen with the keys: the third earns the 56th piece,
// the puzzle-piece message and then the souvenir's completion, one dialog painted at a time, and
// the bag (B) shows the first souvenir complete, 56 of 56 pieces, axe-clean. In English and
// Japanese. The 'postgres' project only: it reaches the e2e server's database on the cluster.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import type { CurrentQuestResponse, MyRecordsResponse } from '../../shared/api';
import { E2E_POSTGRES_CLUSTER_FILE, type E2ePostgresCluster } from '../helpers/e2e-server';
import { readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';
import { SCREENSHOTS } from './canvas-pixels';
import { expectNotCovered, paintedDialogs } from './on-screen';

type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;

/** The season 2 answers the volunteer is given before the walk: three short of a whole souvenir. */
const ANSWERS_BEFORE = 165;
const ANSWERS_AFTER = ANSWERS_BEFORE + 3;

function cluster(): E2ePostgresCluster {
  return JSON.parse(fs.readFileSync(E2E_POSTGRES_CLUSTER_FILE, 'utf8')) as E2ePostgresCluster;
}

async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster().databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Gives the volunteer `answers` answers in season 2, all made now: the per-course count and, as
 * the trigger on answers would have written them, one ranking count per period (hour, day, week,
 * month) starting in the rankings' time zone at the period that holds now; and as many answers
 * on the counter of each campaign open now.
 */
async function setSeason2Answers(email: string, answers: number): Promise<number> {
  return withDatabase(async (client) => {
    const users = await client.query<{ id: string }>('select id from users where email = $1', [email]);
    expect(users.rows).toHaveLength(1);
    const userId = users.rows[0].id;
    await client.query('begin');
    await client.query(
      `insert into course_answer_counts (user_id, course_id, answers_count) values ($1, 'season2', $2)
        on conflict (user_id, course_id) do update set answers_count = excluded.answers_count`,
      [userId, answers],
    );
    await client.query(
      `insert into ranking_counts (course_id, period, period_start, user_id, answers_count, reached_at)
        select 'season2', periods.period, date_trunc(periods.period, now(), zone.time_zone), $1, $2, now()
        from ranking_time_zone zone cross join (values ('hour'), ('day'), ('week'), ('month')) as periods (period)
        where zone.id = 1
        on conflict (course_id, period, period_start, user_id)
        do update set answers_count = excluded.answers_count, reached_at = excluded.reached_at`,
      [userId, answers],
    );
    // Each answer inserted while a campaign is open takes a number of its counter (answer-batches.ts).
    await client.query(
      `select nextval(('campaign_answers_' || campaigns.id)::regclass)
        from campaigns cross join generate_series(1, $1::int)
        where not campaigns.retired and campaigns.period_begin <= now() and campaigns.period_end >= now()`,
      [answers],
    );
    await client.query('commit');
    return Number(userId);
  });
}

/** The volunteer's season 2 answers per ranking period, summed over the period starts. */
async function rankingTotals(userId: number): Promise<Record<string, number>> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ period: string; answers: string }>(
      `select period, sum(answers_count) as answers from ranking_counts
        where user_id = $1 and course_id = 'season2' group by period order by period`,
      [userId],
    );
    return Object.fromEntries(rows.map((row) => [row.period, Number(row.answers)]));
  });
}

async function season2Count(page: Page): Promise<number | undefined> {
  const records = (await (await page.request.get('/api/my_records')).json()) as MyRecordsResponse;
  return records.season2?.answers_count;
}

const TEXT = {
  en: {
    passport: 'Passport',
    answered: 'answered',
    piece: 'A souvenir puzzle piece',
    pieceMessage: `You have classified ${ANSWERS_AFTER} galaxies in this course and earned a puzzle piece.`,
    completed: 'Souvenir completed',
    completedMessage: 'Your last piece completed a souvenir picture.',
    souvenirs: 'Souvenirs',
    earned: 'You have earned 56 pieces.',
    complete: 'Complete!',
    image: /: 56 of 56 jigsaw pieces revealed$/,
    untouched: '0 of 56 pieces',
  },
  ja: {
    passport: 'パスポート',
    answered: '回答済み',
    piece: 'おみやげパズルのピース',
    pieceMessage: `このコースで${ANSWERS_AFTER}個の銀河を分類し、パズルのピースを手に入れました。`,
    completed: 'おみやげが完成',
    completedMessage: '最後のピースでおみやげの絵が完成しました。',
    souvenirs: 'おみやげ',
    earned: 'これまでに集めたピース：56個',
    complete: '完成！',
    image: /：ジグソーパズル 56 ピース中 56 ピース$/,
    untouched: 'ピース 0 / 56',
  },
} as const;

async function openMainScreen(page: Page, locale: 'en' | 'ja') {
  await page.addInitScript((value) => localStorage.setItem('galaxy-cruise.locale', value), locale);
  await page.goto('/#/?course=season2');
  await expect(page.getByRole('button', { name: new RegExp(`^${TEXT[locale].passport}`) })).toBeVisible({
    timeout: 60_000,
  });
}

for (const locale of ['en', 'ja'] as const) {
  test(`the answer that earns the 56th piece completes the first souvenir, and the bag shows it whole (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const L = TEXT[locale];
    await page.setViewportSize({ width: 1280, height: 800 });
    const { email } = await readyVolunteer(page.request, { locale });
    // The current quest of season 2: its area has a galaxy more than the three answered here, so
    // that no area message follows the souvenir's.
    const quest = (await (await page.request.get('/api/courses/season2/quests/current')).json()) as Quest;
    expect(quest.no_more_available_objects).toBe(false);
    expect(quest.questions.length, 'galaxies in the first area of season 2').toBeGreaterThan(3);
    const userId = await setSeason2Answers(email, ANSWERS_BEFORE);
    expect(await season2Count(page)).toBe(ANSWERS_BEFORE);

    await openMainScreen(page, locale);
    const form = page.getByTestId('answer-form');
    const target = page.getByTestId('cruise-target');
    let previous = '';
    for (let answered = 0; answered < 3; answered++) {
      // The next galaxy, not yet answered, its form at the first step and nothing over it.
      await expect(form).toBeVisible({ timeout: 90_000 });
      await expect(target).not.toContainText(L.answered);
      await expect(target).not.toHaveText(previous);
      await expect(form).toHaveAttribute('data-step', '1');
      // Answers 166 and 167 earn nothing: no dialog before the third.
      await expect(page.locator('.dialog-overlay')).toHaveCount(0);
      previous = (await target.innerText()).trim();
      await page.keyboard.press('1');
      await expect(form).toHaveAttribute('data-step', '2');
      await page.keyboard.press('2');
    }

    // The 168th answer: the piece's message, then the souvenir's, one after the other.
    const front = page.locator('.dialog-overlay:not([data-behind]):not([data-closing])').getByRole('dialog');
    const titles: string[] = [];
    for (const [title, message] of [
      [L.piece, L.pieceMessage],
      [L.completed, L.completedMessage],
    ] as const) {
      await expect(front).toHaveCount(1, { timeout: 60_000 });
      await expect(front.getByRole('heading').first()).toHaveText(/./);
      titles.push((await front.getByRole('heading').first().innerText()).trim());
      if (titles.at(-1) !== title) break;
      await expect(front).toContainText(message);
      expect(await paintedDialogs(page), `only "${title}" painted`).toBe(1);
      const ok = front.getByRole('button', { name: 'OK' });
      await expectNotCovered(ok);
      if (title === L.completed) {
        await page.screenshot({ path: `${SCREENSHOTS}/souvenir-completed-${locale}.png` });
        await expectNoSeriousViolations(page, `souvenir completed (${locale})`);
      }
      await ok.click();
      await expect(page.getByRole('dialog', { name: title, exact: true })).toHaveCount(0);
    }
    expect(titles).toEqual([L.piece, L.completed]);
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);

    // The server counted the three answers on top of the 165, in the course and in every ranking.
    expect(await season2Count(page)).toBe(ANSWERS_AFTER);
    expect(await rankingTotals(userId)).toEqual({
      day: ANSWERS_AFTER,
      hour: ANSWERS_AFTER,
      month: ANSWERS_AFTER,
      week: ANSWERS_AFTER,
    });

    // The bag: 56 pieces, the first souvenir whole over its picture, the second untouched.
    await page.keyboard.press('b');
    const bag = page.getByRole('dialog', { name: L.souvenirs });
    await expect(bag.getByTestId('souvenir-pieces')).toHaveText(L.earned);
    const [first, second] = [bag.getByTestId('souvenir').nth(0), bag.getByTestId('souvenir').nth(1)];
    await expect(first.locator('.souvenir-progress')).toHaveText(L.complete);
    await expect(first.locator('.souvenir-piece')).toHaveCount(56);
    await expect(first.locator('.souvenir-piece[data-revealed]')).toHaveCount(56);
    await expect(first.getByRole('img')).toHaveAccessibleName(L.image);
    await expect
      .poll(() => first.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    await expect(second.locator('.souvenir-progress')).toHaveText(L.untouched);
    await expect(second.locator('.souvenir-piece[data-revealed]')).toHaveCount(0);
    await expectNotCovered(first.getByRole('img'));
    expect(await paintedDialogs(page)).toBe(1);
    await expectNoSeriousViolations(page, `souvenirs with one complete (${locale})`);
    await page.screenshot({ path: `${SCREENSHOTS}/souvenir-complete-bag-${locale}.png` });
    await page.keyboard.press('Escape');
    await expect(bag).toHaveCount(0);
  });
}
