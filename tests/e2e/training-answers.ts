// A volunteer on the training course's main screen, as the cruise spec drives one: the course
// opened, its current quest and the galaxy on screen, the three answer paths given with the mouse
// or the keys alone (each step's buttons and keys, application-spec §3), the captain-note review
// and the puzzle-piece message an answer may earn.
import { expect, type Locator, type Page } from '@playwright/test';
import type { CurrentQuestResponse } from '../../shared/api';

export type Quest = Extract<CurrentQuestResponse, { no_more_available_objects: false }>;
export type AnswerPath = 'spiral, no' | 'elliptical, yes, ring and tail' | 'not sure, not sure';
export const PATHS: AnswerPath[] = ['spiral, no', 'elliptical, yes, ring and tail', 'not sure, not sure'];

/** The answer each path sends (application-spec §3 fields). */
export const EXPECTED = {
  'spiral, no': { galaxy_type: 'spiral', interaction: 'no', ring: false, fan: false, tail: false, distorted: false },
  'elliptical, yes, ring and tail': {
    galaxy_type: 'elliptical',
    interaction: 'yes',
    ring: true,
    fan: false,
    tail: true,
    distorted: false,
  },
  'not sure, not sure': {
    galaxy_type: 'not_sure',
    interaction: 'not_sure',
    ring: false,
    fan: false,
    tail: false,
    distorted: false,
  },
} as const;

export async function currentQuest(page: Page): Promise<Quest> {
  const response = await page.request.get('/api/courses/training/quests/current');
  expect(response.ok()).toBe(true);
  const quest = (await response.json()) as CurrentQuestResponse;
  expect(quest.no_more_available_objects).toBe(false);
  return quest as Quest;
}

/** Opens the training course and waits for the answer form on its first target. */
export async function openTraining(page: Page) {
  await page.goto('/#/?course=training');
  // The first jump crosses the sky from the default view: on a loaded machine with a software
  // GL its frames can take seconds each.
  await expect(page.getByTestId('answer-form')).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId('stage-name')).toContainText('Stage:');
}

/** Which question the form is on: "Galaxy i of n" names it by its place in the quest. */
export async function currentIndex(page: Page): Promise<number> {
  const text = (await page.getByTestId('cruise-target').innerText()).match(/Galaxy (\d+) of/);
  expect(text).not.toBeNull();
  return Number(text![1]) - 1;
}

export async function answerWithMouse(page: Page, path: AnswerPath) {
  const form = page.getByTestId('answer-form');
  await expect(form).toHaveAttribute('data-step', '1');
  await expect(form.getByRole('button', { name: 'Step 1' })).toBeDisabled();
  const [type, interaction] = {
    'spiral, no': ['Spiral', 'No'],
    'elliptical, yes, ring and tail': ['Elliptical', 'Yes'],
    'not sure, not sure': ['Not sure', 'Not sure'],
  }[path];
  await form.getByRole('button', { name: type, exact: false }).click();
  await expect(form).toHaveAttribute('data-step', '2');
  // The numbered buttons go back to earlier steps only.
  await expect(form.getByRole('button', { name: 'Step 3' })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Step 2' })).toBeDisabled();
  await form.getByRole('button', { name: 'Step 1' }).click();
  await expect(form).toHaveAttribute('data-step', '1');
  await form.getByRole('button', { name: type, exact: false }).click();
  await form.getByRole('button', { name: new RegExp(`^\\d ${interaction}$`) }).click();
  if (path === 'elliptical, yes, ring and tail') {
    await expect(form).toHaveAttribute('data-step', '3');
    await form.getByRole('button', { name: 'Ring' }).click();
    await form.getByRole('button', { name: 'Tail' }).click();
    await expect(form.getByRole('button', { name: 'Ring' })).toHaveAttribute('aria-pressed', 'true');
    await form.getByRole('button', { name: 'Submit' }).click();
  }
}

export async function answerWithKeys(page: Page, path: AnswerPath) {
  const form = page.getByTestId('answer-form');
  await expect(form).toHaveAttribute('data-step', '1');
  const [type, interaction] = {
    'spiral, no': ['1', '2'],
    'elliptical, yes, ring and tail': ['2', '1'],
    'not sure, not sure': ['3', '3'],
  }[path];
  await page.keyboard.press(type);
  await expect(form).toHaveAttribute('data-step', '2');
  await page.keyboard.press('Backspace');
  await expect(form).toHaveAttribute('data-step', '1');
  await page.keyboard.press(type);
  await expect(form).toHaveAttribute('data-step', '2');
  await page.keyboard.press(interaction);
  if (path === 'elliptical, yes, ring and tail') {
    await expect(form).toHaveAttribute('data-step', '3');
    await page.keyboard.press('1');
    await page.keyboard.press('3');
    await expect(form.getByRole('button', { name: 'Tail' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Enter');
  }
}

/** The captain-note review of a training target: Retry once (cancels), then Next. */
export async function reviewCaptainNote(
  page: Page,
  retryFirst: boolean,
  keyboard: boolean,
  answer: () => Promise<void>,
) {
  const note = page.getByRole('dialog', { name: "Captain's note" });
  await expect(note).toBeVisible();
  await expect(note.getByTestId('note-captains')).not.toBeEmpty();
  if (retryFirst) {
    if (keyboard) await page.keyboard.press('r');
    else await note.getByRole('button', { name: 'Retry' }).click();
    await expect(note).toBeHidden();
    await expect(page.locator('.dialog-overlay')).toHaveCount(0);
    await expect(page.getByTestId('answer-form')).toHaveAttribute('data-step', '1');
    await answer();
    await expect(note).toBeVisible();
  }
  if (keyboard) await page.keyboard.press('Enter');
  else await note.getByRole('button', { name: 'Next' }).click();
  // After the area's last galaxy the area's own messages may already follow (finishArea reads them).
  await expect(note).toBeHidden();
}

/**
 * Once the answers are sent, confirms the souvenir puzzle-piece message an answer may have
 * earned (every third answer of a course in developer mode, application-spec §4, §9).
 */
export async function confirmRewards(page: Page, keyboard = false) {
  await expect(page.getByTestId('pending-answers')).toHaveText('', { timeout: 60_000 });
  const piece = page.getByRole('dialog', { name: 'A souvenir puzzle piece' });
  if ((await piece.count()) > 0) {
    await confirm(page, piece, keyboard);
    await expect(piece).toBeHidden();
  }
}

/** OK on a message dialog: clicked, or from the keyboard Enter on its OK button, which has the focus. */
export async function confirm(page: Page, dialog: Locator, keyboard: boolean) {
  const ok = dialog.getByRole('button', { name: 'OK' });
  if (!keyboard) return ok.click();
  await expect(ok).toBeFocused();
  await page.keyboard.press('Enter');
}
