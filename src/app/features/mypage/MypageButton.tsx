// The suitcase of the bottom buttons (application-spec §2: suitcase = mypage): opens the mypage,
// also by its key, M (printed on the button; a key of the page's shortcuts, so not while typing
// or while a dialog is open).
import { Luggage } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { useShortcut } from '../../components/shortcuts';
import { MypageDialog } from './MypageDialog';

export const MYPAGE_KEY = 'm';

export function MypageButton({ course }: { course: string }) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const open = useCallback(() => {
    void dialogs.open(<MypageDialog course={course} />, { className: 'wide' }).catch((error: unknown) => {
      if (!(error instanceof DialogDismissed)) throw error;
    });
  }, [dialogs, course]);
  useShortcut(MYPAGE_KEY, open);
  return (
    <button type="button" className="button cruise-button" onClick={open} aria-keyshortcuts="M">
      <Luggage aria-hidden="true" size={20} />
      <span>{t('mypage.open')}</span>
      <kbd>M</kbd>
    </button>
  );
}
