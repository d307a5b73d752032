// The main screen's header, ranking modal, notifications list and mypage end to end
// (application-spec §2, §4, §7, §9): a volunteer opens each of the header's dialogs (messages,
// how to operate, mission, tips, ranking) and the mypage (the suitcase) with the mouse and with
// the keyboard alone, in English and Japanese (no English left), at 1280 and 360 px wide (where
// the links sit in the menu with home); every dialog is scanned by axe-core and kept as a
// screenshot. Two volunteers' answers, posted over HTTP, move the ranking, and the own row is
// highlighted. On a server with an administrator, a notification created through the admin API
// appears in the list with its date, is filtered by type, and is marked read on OK.
import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import type { CampaignEntry, CurrentQuestResponse, UserNotification } from '../../shared/api';
import {
  ADMIN_EMAIL,
  readyVolunteerOn,
  startConfiguredServer,
  type ConfiguredServer,
} from '../helpers/configured-server';
import { E2E_ORIGIN } from '../helpers/e2e-server';
import { freshEmail, readyVolunteer } from '../helpers/volunteers';
import { expectNoSeriousViolations } from './axe';

// The machine that runs these may be busy: a screen can take several seconds to appear.
const SHOTS = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

type Locale = 'en' | 'ja';
type Modal = 'messages' | 'howTo' | 'mission' | 'tips' | 'ranking' | 'mypage';
const MODALS: Modal[] = ['messages', 'howTo', 'mission', 'tips', 'ranking', 'mypage'];

/** What the volunteer reads: the link (or button) of each dialog and the dialog's title. */
const TEXT = {
  en: {
    menu: 'Menu',
    home: 'Home',
    credits: 'Credits',
    links: {
      messages: 'Messages',
      howTo: 'How to operate',
      mission: 'Mission',
      tips: 'Tips',
      ranking: 'Ranking',
      mypage: 'Voyage log',
    },
    titles: {
      messages: 'Messages',
      howTo: 'How to operate',
      mission: 'Your mission',
      tips: 'Tips',
      ranking: 'Ranking',
      mypage: 'Voyage log',
    },
  },
  ja: {
    menu: 'メニュー',
    home: 'ホーム',
    credits: 'クレジット',
    links: {
      messages: 'メッセージ',
      howTo: '操作方法',
      mission: 'ミッション',
      tips: 'ヒント',
      ranking: 'ランキング',
      mypage: '航海日誌',
    },
    titles: {
      messages: 'メッセージ',
      howTo: '操作方法',
      mission: 'あなたのミッション',
      tips: 'ヒント',
      ranking: 'ランキング',
      mypage: '航海日誌',
    },
  },
} as const;

/** Opens the main screen in `locale` and waits for the cruise's course selector. */
async function openMainScreen(page: Page, locale: Locale, origin = '') {
  await page.addInitScript((language) => localStorage.setItem('galaxy-cruise.locale', language), locale);
  await page.goto(`${origin}/#/`);
  await expect(page.getByTestId('course-select')).toBeVisible({ timeout: 60_000 });
  // The suitcase is part of the cruise, shown once the quest is there.
  await expect(page.getByRole('button', { name: TEXT[locale].links.mypage })).toBeVisible({ timeout: 60_000 });
}

/**
 * English words left in a Japanese dialog: not the volunteers' nicknames (n + digits) nor the keys
 * named as printed on a keyboard.
 */
function englishWords(text: string): string[] {
  // Words with lower-case letters: a survey field's name (AEGIS, COSMOS, GAMA on the cruise map's
  // labels) is an acronym in every language.
  return (text.match(/[A-Za-z]*[a-z]{3,}/g) ?? []).filter((word) => !['Tab', 'Enter', 'Backspace'].includes(word));
}

/** What each dialog must hold beyond its title. */
async function expectContent(page: Page, modal: Modal, locale: Locale, nickname: string) {
  const dialog = page.getByRole('dialog', { name: TEXT[locale].titles[modal] });
  switch (modal) {
    case 'messages':
      await expect(dialog.getByRole('group', { name: locale === 'en' ? 'Show' : '表示' })).toBeVisible();
      await expect(dialog.getByRole('radio')).toHaveCount(4);
      break;
    case 'howTo':
      await expect(dialog.getByRole('heading', { level: 3 })).toHaveCount(4);
      break;
    case 'mission':
    case 'tips':
      await expect(dialog.locator('p, li').first()).toBeVisible();
      break;
    case 'ranking':
      await expect(dialog.getByRole('radio')).toHaveCount(6);
      await expect(dialog.getByTestId('ranking-table').or(dialog.getByText(/first|一番乗り/))).toBeVisible();
      break;
    case 'mypage': {
      await expect(dialog.getByText(nickname)).toBeVisible();
      // A new volunteer: no area finished, so rank 4 and no star; the certificates block hidden.
      await expect(dialog.getByTestId('cabin-rank')).toHaveAttribute('data-rank', '4');
      await expect(dialog.getByRole('img', { name: locale === 'en' ? '0 of 4 stars' : '星4つ中0つ' })).toBeVisible();
      await expect(dialog.getByTestId('classified-counts').locator('dd')).toHaveCount(3);
      await expect(dialog.getByTestId('certificates')).toHaveCount(0);
      // Season2's map, with its island and archipelago labels.
      const map = dialog.getByTestId('cruise-map');
      await expect(map).toBeVisible();
      expect(Number(await map.getAttribute('data-labels'))).toBeGreaterThan(0);
      await expect(map.getByRole('status')).toHaveCount(0, { timeout: 60_000 });
      // Events: every campaign, the finished one included.
      const campaigns = (await (await page.request.get('/api/campaigns')).json()) as CampaignEntry[];
      await expect(dialog.getByTestId('mypage-events').locator(':scope > li')).toHaveCount(campaigns.length);
      const ended = campaigns.filter((entry) => Date.parse(entry.meta.period_end) < Date.now()).length;
      expect(ended).toBeGreaterThan(0);
      await expect(dialog.locator('[data-status="ended"]')).toHaveCount(ended);
      // Each medal beside its count, drawn from the sky data's image.
      const medals = campaigns.reduce((sum, entry) => sum + entry.meta.medals.length, 0);
      const images = dialog.locator('.mypage-medals img');
      await expect(images).toHaveCount(medals);
      await expect
        .poll(() =>
          images.evaluateAll((all) => all.filter((image) => (image as HTMLImageElement).naturalWidth > 0).length),
        )
        .toBe(medals);
      break;
    }
  }
  if (locale === 'ja') expect(englishWords(await dialog.innerText()), modal).toEqual([]);
}

/** The header links live in the menu on a narrow screen. */
async function revealLinks(page: Page, locale: Locale, narrow: boolean) {
  if (!narrow) return;
  const menu = page.getByRole('button', { name: TEXT[locale].menu });
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await expect(page.getByRole('link', { name: TEXT[locale].home })).toBeVisible();
}

/** Presses Tab until the focused element's name contains `name`; fails after 80 presses. */
async function tabTo(page: Page, name: string) {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element ? `${element.getAttribute('aria-label') ?? ''} ${element.innerText ?? ''}` : '';
    });
    if (focused.includes(name)) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

for (const locale of ['en', 'ja'] as const)
  for (const width of [1280, 360]) {
    const narrow = width === 360;
    test(`every header dialog and the mypage, mouse then keyboard, ${locale} at ${width} px`, async ({ page }) => {
      test.setTimeout(420_000);
      await page.setViewportSize({ width, height: narrow ? 740 : 800 });
      const { nickname } = await readyVolunteer(page.request, { locale, nickname: `n${Date.now()}` });
      await openMainScreen(page, locale);
      const text = TEXT[locale];

      // The header: each campaign now on has its progress bar; credits is a link to a real page.
      const campaigns = (await (await page.request.get('/api/campaigns')).json()) as CampaignEntry[];
      const now = Date.now();
      const active = campaigns.filter(
        (entry) => Date.parse(entry.meta.period_begin) <= now && now <= Date.parse(entry.meta.period_end),
      );
      await expect(page.getByTestId('campaign-progress')).toHaveCount(active.length);
      await revealLinks(page, locale, narrow);
      await expect(page.getByRole('link', { name: text.credits })).toHaveAttribute('href', '#/credits');
      await page.screenshot({ path: `${SHOTS}/main-screen-${locale}-${width}.png` });

      // The mouse.
      for (const modal of MODALS) {
        if (modal === 'mypage') await page.getByRole('button', { name: text.links.mypage }).click();
        else {
          await revealLinks(page, locale, narrow);
          await page.getByRole('button', { name: text.links[modal] }).click();
        }
        const dialog = page.getByRole('dialog', { name: text.titles[modal] });
        await expect(dialog).toBeVisible();
        await expectContent(page, modal, locale, nickname);
        await expectNoSeriousViolations(page, `${modal} ${locale} ${width}`);
        await page.screenshot({ path: `${SHOTS}/${modal}-${locale}-${width}.png` });
        await dialog.getByRole('button', { name: locale === 'en' ? 'Close' : '閉じる' }).click();
        await expect(dialog).toBeHidden();
      }

      // The keyboard alone: Tab to each link (through the menu on a narrow screen), Enter opens
      // its dialog with the focus inside, Escape closes it; M opens the mypage.
      await page.reload();
      await expect(page.getByTestId('course-select')).toBeVisible({ timeout: 60_000 });
      for (const modal of MODALS) {
        if (modal === 'mypage') {
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          await page.keyboard.press('m');
        } else {
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
          if (narrow && (await page.getByRole('link', { name: text.home }).isHidden())) {
            await tabTo(page, text.menu);
            await page.keyboard.press('Enter');
          }
          await tabTo(page, text.links[modal]);
          await page.keyboard.press('Enter');
        }
        const dialog = page.getByRole('dialog', { name: text.titles[modal] });
        await expect(dialog).toBeVisible();
        await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      }
      // The suitcase from the keyboard too: Tab to it, Enter.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabTo(page, text.links.mypage);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: text.titles.mypage })).toBeVisible();
    });
  }

/** Posts `count` answers to the volunteer's current season2 quest, from its first unanswered. */
async function answer(context: APIRequestContext, count: number) {
  const quest = (await (await context.get('/api/courses/season2/quests/current')).json()) as Extract<
    CurrentQuestResponse,
    { no_more_available_objects: false }
  >;
  const answered = new Set(quest.answers.map((entry) => entry.object_id));
  const open = quest.questions.filter((question) => !answered.has(question.object_id));
  expect(open.length).toBeGreaterThanOrEqual(count);
  for (const question of open.slice(0, count)) {
    const response = await context.post(`/api/quests/${quest.id}/answers`, {
      data: { object_id: question.object_id, galaxy_type: 'spiral', interaction: 'no' },
    });
    expect(response.ok()).toBe(true);
  }
}

test("two volunteers' answers move the ranking; the own row is highlighted", async ({ page }) => {
  test.setTimeout(300_000);
  const mine = await readyVolunteer(page.request, { nickname: `me${Date.now()}` });
  const other = await playwrightRequest.newContext({ baseURL: E2E_ORIGIN });
  try {
    const theirs = await readyVolunteer(other, { nickname: `them${Date.now()}` });
    await answer(page.request, 2);
    await answer(other, 3);
    await openMainScreen(page, 'en');

    const openRanking = async () => {
      await page.getByRole('button', { name: 'Ranking' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ranking' });
      await expect(dialog.getByTestId('ranking-table')).toBeVisible();
      return dialog;
    };
    const rowOf = (dialog: Locator, nickname: string) => dialog.getByRole('row').filter({ hasText: nickname });

    let dialog = await openRanking();
    await expect(dialog.getByRole('radio', { name: 'Daily' })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: 'Season 2' })).toBeChecked();
    await expect(rowOf(dialog, mine.nickname).getByTestId('ranking-count')).toHaveText('2');
    await expect(rowOf(dialog, theirs.nickname).getByTestId('ranking-count')).toHaveText('3');
    await expect(rowOf(dialog, mine.nickname)).toHaveAttribute('aria-current', 'true');
    await expect(rowOf(dialog, mine.nickname)).toContainText('(you)');
    await expect(rowOf(dialog, theirs.nickname)).not.toHaveAttribute('aria-current');
    const names = async () => (await dialog.locator('tbody .ranking-nickname').allInnerTexts()).join(' ');
    expect((await names()).indexOf(theirs.nickname)).toBeLessThan((await names()).indexOf(mine.nickname));
    // The own row is drawn apart from the others (its own background).
    const background = (nickname: string) =>
      rowOf(dialog, nickname).evaluate((row) => getComputedStyle(row).backgroundColor);
    expect(await background(mine.nickname)).not.toBe(await background(theirs.nickname));
    // The bar of the leader is full; the other is shorter.
    const barWidth = (nickname: string) =>
      rowOf(dialog, nickname)
        .locator('.ranking-bar > span')
        .evaluate((bar) => bar.getBoundingClientRect().width);
    expect(await barWidth(mine.nickname)).toBeLessThan(await barWidth(theirs.nickname));

    // Hourly holds the same answers; illustris none of them.
    await dialog.getByRole('radio', { name: 'Hourly' }).check();
    await expect(rowOf(dialog, mine.nickname).getByTestId('ranking-count')).toHaveText('2');
    await expectNoSeriousViolations(page, 'ranking');
    await page.screenshot({ path: `${SHOTS}/ranking-two-volunteers.png` });
    await dialog.getByRole('radio', { name: 'Illustris' }).check();
    await expect(dialog.getByRole('row').filter({ hasText: mine.nickname })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Two more answers of mine: I pass them. Other specs' volunteers may answer season2 on the
    // same server today, so the order asked is between these two, not the table's first row.
    await answer(page.request, 2);
    await expect
      .poll(async () => {
        const response = await page.request.get('/api/courses/season2/rankings/day');
        const order = ((await response.json()) as { nickname: string }[]).map((row) => row.nickname);
        const index = (nickname: string) => (order.includes(nickname) ? order.indexOf(nickname) : Infinity);
        return index(mine.nickname) < index(theirs.nickname);
      })
      .toBe(true);
    dialog = await openRanking();
    await expect(rowOf(dialog, mine.nickname).getByTestId('ranking-count')).toHaveText('4');
    expect((await names()).indexOf(mine.nickname)).toBeLessThan((await names()).indexOf(theirs.nickname));
    await expect(rowOf(dialog, mine.nickname)).toHaveAttribute('aria-current', 'true');
  } finally {
    await other.dispose();
  }
});

test.describe('notifications list', () => {
  let server: ConfiguredServer;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startConfiguredServer('header-notifications');
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a notification created through the admin API appears in the list with its date and is marked read on OK', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const admin = await playwrightRequest.newContext();
    try {
      await readyVolunteerOn(server, admin, { email: ADMIN_EMAIL });
      await readyVolunteerOn(server, page.request, { email: freshEmail('messages'), locale: 'ja' });
      await openMainScreen(page, 'ja', server.url);
      const messages = page.getByTestId('messages-link');
      await expect(messages).toHaveAccessibleName('メッセージ');

      const created = await admin.post(`${server.url}/api/notifications`, {
        data: {
          type: 'captain_message',
          title: { en: 'Fair winds', ja: '順風満帆' },
          message: { en: 'The captain thanks the crew.', ja: '船長から乗組員へ感謝を込めて。' },
          locale_fallback: false,
        },
      });
      expect(created.ok()).toBe(true);

      // The list is refetched (every 5 s in developer mode, as on this loopback server).
      await expect(page.getByTestId('unread-count')).toHaveText('1');
      await expect(messages).toHaveAccessibleName('メッセージ（未読1件）');
      await messages.click();
      const list = page.getByRole('dialog', { name: 'メッセージ' });
      const row = list.getByRole('button', { name: /順風満帆/ });
      await expect(row).toBeVisible();
      await expect(row).toContainText('未読');
      await expect(row).toContainText('船長からのメッセージ');
      // The date in the user's language (Intl, ja).
      const [shown] = (await (
        await page.request.get(`${server.url}/api/notifications`, { params: { include_old: true } })
      ).json()) as UserNotification[];
      const date = await page.evaluate(
        (iso) => new Intl.DateTimeFormat('ja', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
        shown.created_at,
      );
      await expect(row.locator('time')).toHaveText(date);
      await expect(row.locator('time')).toHaveAttribute('datetime', shown.created_at);

      // Filter by type: not among the unlocked ones, back among the captain's messages.
      await list.getByRole('radio', { name: 'アンロック' }).check();
      await expect(row).toBeHidden();
      await list.getByRole('radio', { name: '船長からのメッセージ' }).check();
      await expect(row).toBeVisible();
      await expectNoSeriousViolations(page, 'notifications list');
      await page.screenshot({ path: `${SHOTS}/notifications-list-ja.png` });

      // Clicking the row opens it; OK marks it read.
      await row.click();
      const opened = page.getByRole('dialog', { name: '順風満帆' });
      await expect(opened.getByText('船長から乗組員へ感謝を込めて。')).toBeVisible();
      await opened.getByRole('button', { name: 'OK' }).click();
      await expect(opened).toBeHidden();
      await expect
        .poll(async () => {
          const response = await page.request.get(`${server.url}/api/notifications`, {
            params: { include_old: true },
          });
          return ((await response.json()) as UserNotification[]).find((entry) => entry.id === shown.id)?.read;
        })
        .toBe(true);
      await expect(row).not.toContainText('未読');
      await expect(page.getByTestId('unread-count')).toHaveCount(0);
    } finally {
      await admin.dispose();
    }
  });
});
