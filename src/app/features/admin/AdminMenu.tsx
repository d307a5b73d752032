// The administrator's floating menu (application-spec §2, §6): an admin menu with the
// notifications link and the research dashboard's (issue 29), a development menu with the
// project's external links, the dictionary (every string of the app in English and Japanese), a
// language menu, and in developer mode a pages menu whose pages keys 1 to n open. Keys: shift+V
// shows or hides the menu bar, shift+E and shift+J switch to English and Japanese. Keys typed
// into a field are left alone. On a screen with a slot for it (adminMenuSlot.tsx: the main
// screen's header) the bar is a drop-down there, so that it covers none of the screen's controls;
// elsewhere it floats at the bottom left.
import { Wrench } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { LOCALES } from '../../../../shared/api';
import { DialogFrame, useDialog, useDialogs } from '../../components/dialogs';
import { developerMode } from '../../developerMode';
import { resources } from '../../i18n';
import { useAdminMenuSlot } from './adminMenuSlot';
import './admin.css';

const DEVELOPMENT_LINKS = [
  { key: 'hscSsp', href: 'https://hsc.mtk.nao.ac.jp/ssp/' },
  { key: 'galaxyCruise', href: 'https://galaxycruise.mtk.nao.ac.jp/' },
] as const;

/** The pages menu of developer mode, in the order of its keys 1 to n. */
export const PAGES = [
  '/',
  '/admin/notifications',
  '/present2025winter',
  '/credits',
  '/terms',
  '/devel/Home',
  '/devel/SessionViewer',
  '/devel/I18nTest',
  '/devel/PlayGround',
] as const;

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** Every string key with its English and Japanese text. */
function dictionaryEntries(): { key: string; en: string; ja: string }[] {
  const entries: { key: string; en: string; ja: string }[] = [];
  const walk = (en: unknown, ja: unknown, path: string) => {
    if (typeof en === 'string') entries.push({ key: path, en, ja: typeof ja === 'string' ? ja : '' });
    else if (en && typeof en === 'object')
      for (const [name, value] of Object.entries(en))
        walk(value, (ja as Record<string, unknown> | undefined)?.[name], path ? `${path}.${name}` : name);
  };
  walk(resources.en.translation, resources.ja.translation, '');
  return entries;
}

function DictionaryDialog() {
  const { t } = useTranslation();
  const dialog = useDialog();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const rows = dictionaryEntries().filter(
    (entry) => !needle || [entry.key, entry.en, entry.ja].some((text) => text.toLowerCase().includes(needle)),
  );
  return (
    <DialogFrame
      title={t('admin.menu.dictionary')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      <input
        type="search"
        aria-label={t('admin.menu.dictionary')}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        autoFocus
      />
      <div className="admin-table-wrap dictionary">
        <table className="admin-table">
          <tbody>
            {rows.map((entry) => (
              <tr key={entry.key}>
                <th scope="row">{entry.key}</th>
                <td lang="en">{entry.en}</td>
                <td lang="ja">{entry.ja}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </DialogFrame>
  );
}

/**
 * The menu as a drop-down of the slot's screen: a button in the screen's row of links that opens
 * the bar under it; Escape, or a link chosen in it, closes it again.
 */
function AdminMenuDropDown({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const details = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (!details.current?.open) return false;
    details.current.open = false;
    details.current.querySelector('summary')?.focus();
    return true;
  };
  return (
    <details
      ref={details}
      className="admin-menu-drop-down"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && close()) event.stopPropagation();
      }}
      onClick={(event) => {
        // A link was chosen: the drop-down has done its part. (The dictionary's dialog gives the
        // focus back to its button, which stays in the open drop-down.)
        if ((event.target as Element).closest('a')) close();
      }}
    >
      <summary className="button header-link">
        <Wrench aria-hidden="true" size={16} />
        <span>{t('admin.menu.open')}</span>
      </summary>
      {children}
    </details>
  );
}

export function AdminMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const [barShown, setBarShown] = useState(true);
  const slot = useAdminMenuSlot();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.shiftKey && event.code === 'KeyV') setBarShown((shown) => !shown);
      else if (event.shiftKey && event.code === 'KeyE') void i18n.changeLanguage('en');
      else if (event.shiftKey && event.code === 'KeyJ') void i18n.changeLanguage('ja');
      else if (developerMode && !event.shiftKey && /^[1-9]$/.test(event.key)) {
        const page = PAGES[Number(event.key) - 1];
        if (page) void navigate(page);
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [i18n, navigate]);

  if (!barShown) return null;
  const bar = (
    <nav className="admin-menu panel" aria-label={t('admin.menu.label')}>
      <details>
        <summary>{t('admin.menu.admin')}</summary>
        <Link to="/admin/notifications" className="link">
          {t('admin.menu.notifications')}
        </Link>
        <Link to="/admin/science" className="link">
          {t('science.title')}
        </Link>
        <Link to="/admin/courses" className="link">
          {t('courseAdmin.title')}
        </Link>
      </details>
      <details>
        <summary>{t('admin.menu.development')}</summary>
        {DEVELOPMENT_LINKS.map((link) => (
          <a key={link.key} href={link.href} target="_blank" rel="noreferrer" className="link">
            {t(`admin.menu.${link.key}`)}
          </a>
        ))}
      </details>
      <button type="button" className="button" onClick={() => void dialogs.open(<DictionaryDialog />).catch(() => {})}>
        {t('admin.menu.dictionary')}
      </button>
      <details>
        <summary>{t('admin.menu.language')}</summary>
        {LOCALES.map((locale) => (
          <button
            key={locale}
            type="button"
            className="button"
            lang={locale}
            aria-pressed={i18n.resolvedLanguage === locale}
            onClick={() => void i18n.changeLanguage(locale)}
          >
            {t(`common.languageNames.${locale}`)} (shift+{locale === 'en' ? 'E' : 'J'})
          </button>
        ))}
      </details>
      {developerMode && (
        <details>
          <summary>{t('admin.menu.pages')}</summary>
          <ol>
            {PAGES.map((page, index) => (
              <li key={page}>
                <Link to={page} className="link">
                  {index + 1}: {page}
                </Link>
              </li>
            ))}
          </ol>
        </details>
      )}
      <span className="admin-menu-hint">{t('admin.menu.shortcuts')}</span>
    </nav>
  );
  return slot ? createPortal(<AdminMenuDropDown>{bar}</AdminMenuDropDown>, slot) : bar;
}
