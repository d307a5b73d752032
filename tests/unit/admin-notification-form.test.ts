// The admin edit dialog's rules (application-spec §2, §5): locale rows to locale maps, the 'en'
// title rule of fall back to English, the preview per locale by the server's locale rule, the
// special-notification marker, and the date-time pickers' round trip.
import { describe, expect, it } from 'vitest';
import type { AdminNotification } from '../../shared/api';
import {
  emptyForm,
  formOf,
  fromLocalInput,
  inputOf,
  nextLocale,
  previewFor,
  saveProblem,
  toLocalInput,
  withCustomComponent,
  type NotificationForm,
} from '../../src/app/features/admin/notificationForm';
import { customComponentMarker } from '../../src/app/components/NotificationBody';

function form(patch: Partial<NotificationForm>): NotificationForm {
  return { ...emptyForm(), ...patch };
}

describe('notification edit form', () => {
  it('sends the rows as locale maps, leaving out blank texts', () => {
    const input = inputOf(
      form({
        title: [
          { locale: 'en', text: 'Hello' },
          { locale: 'ja', text: '  ' },
        ],
        message: [{ locale: 'ja', text: 'こんにちは' }],
      }),
    );
    expect(input.title).toEqual({ en: 'Hello' });
    expect(input.message).toEqual({ ja: 'こんにちは' });
    expect(input.valid_after).toBeNull();
    expect(input.valid_before).toBeNull();
  });

  it("refuses to save with fall back to English on and no 'en' title", () => {
    expect(saveProblem(form({ locale_fallback: true, title: [{ locale: 'ja', text: 'お知らせ' }] }))).toBe(
      'enTitleRequired',
    );
    expect(saveProblem(form({ locale_fallback: true, title: [{ locale: 'en', text: 'News' }] }))).toBeNull();
    expect(saveProblem(form({ title: [{ locale: 'ja', text: 'お知らせ' }] }))).toBeNull();
    expect(saveProblem(form({ title: [] }))).toBe('titleRequired');
  });

  it('previews what a user of each locale sees: own language, else English when falling back, else nothing', () => {
    const onlyEn = form({ title: [{ locale: 'en', text: 'News' }], message: [{ locale: 'en', text: 'Body' }] });
    expect(previewFor(onlyEn, 'en')).toEqual({ locale: 'en', title: 'News', message: 'Body' });
    expect(previewFor(onlyEn, 'ja')).toBeNull();
    expect(previewFor({ ...onlyEn, locale_fallback: true }, 'ja')).toEqual({
      locale: 'en',
      title: 'News',
      message: 'Body',
    });
  });

  it('adds rows for the locales not yet used', () => {
    expect(nextLocale([{ locale: 'en', text: '' }])).toBe('ja');
    expect(nextLocale([{ locale: 'ja', text: '' }])).toBe('en');
    expect(
      nextLocale([
        { locale: 'en', text: '' },
        { locale: 'ja', text: '' },
      ]),
    ).toBeNull();
  });

  it('replaces the body of every locale with the custom-component marker', () => {
    const special = withCustomComponent(
      form({
        message: [
          { locale: 'en', text: 'old' },
          { locale: 'ja', text: '古い' },
        ],
      }),
      'Present2025Winter',
    );
    expect(special.custom_component).toBe('Present2025Winter');
    expect(special.message).toEqual([
      { locale: 'en', text: customComponentMarker('Present2025Winter') },
      { locale: 'ja', text: customComponentMarker('Present2025Winter') },
    ]);
  });

  it('keeps valid-from and valid-until to the minute through the datetime-local pickers', () => {
    const iso = '2025-02-07T00:00:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
  });

  it('opens a stored notification with its rows in locale order', () => {
    const stored: AdminNotification = {
      id: 7,
      type: 'captain_message',
      title: { ja: 'タイトル', en: 'Title' },
      message: { en: 'Body' },
      html: true,
      locale_fallback: true,
      custom_component: null,
      valid_after: null,
      valid_before: '2030-01-01T00:00:00.000Z',
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
      user_id: null,
    };
    const opened = formOf(stored);
    expect(opened.title).toEqual([
      { locale: 'en', text: 'Title' },
      { locale: 'ja', text: 'タイトル' },
    ]);
    expect(inputOf(opened)).toMatchObject({
      title: stored.title,
      message: stored.message,
      html: true,
      locale_fallback: true,
      valid_before: stored.valid_before,
    });
  });
});
