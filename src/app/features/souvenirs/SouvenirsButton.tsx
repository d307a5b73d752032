// The bag of the bottom buttons (application-spec §2: bag = souvenirs): opens the souvenirs,
// also by its key, B (printed on the button; not while typing or while a dialog is open).
import { ShoppingBag } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { useShortcut } from '../../components/shortcuts';
import { SouvenirsDialog } from './SouvenirsDialog';

export const SOUVENIRS_KEY = 'b';

export function SouvenirsButton() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const open = useCallback(() => {
    void dialogs.open(<SouvenirsDialog />, { className: 'wide' }).catch((error: unknown) => {
      if (!(error instanceof DialogDismissed)) throw error;
    });
  }, [dialogs]);
  useShortcut(SOUVENIRS_KEY, open);
  return (
    <button type="button" className="button cruise-button" onClick={open} aria-keyshortcuts="B">
      <ShoppingBag aria-hidden="true" size={20} />
      <span>{t('souvenirs.open')}</span>
      <kbd>B</kbd>
    </button>
  );
}
