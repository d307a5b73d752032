// The passport of the bottom buttons (application-spec §2: passport = stamps): opens the
// passport, also by its key, P (printed on the button; not while typing or while a dialog is
// open).
import { BookUser } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { useShortcut } from '../../components/shortcuts';
import { PassportDialog } from './PassportDialog';

export const PASSPORT_KEY = 'p';

export function PassportButton({ course }: { course: string }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const open = useCallback(() => {
    void dialogs.open(<PassportDialog course={course} />, { className: 'wide' }).catch((error: unknown) => {
      if (!(error instanceof DialogDismissed)) throw error;
    });
  }, [dialogs, course]);
  useShortcut(PASSPORT_KEY, open);
  return (
    <button type="button" className="button cruise-button" onClick={open} aria-keyshortcuts="P">
      <BookUser aria-hidden="true" size={20} />
      <span>{t('passport.open')}</span>
      <kbd>P</kbd>
    </button>
  );
}
