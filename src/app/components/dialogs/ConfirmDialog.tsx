// A yes-or-no question on the dialog stack: resolves true on the confirming button, false on
// cancel (a dismissable one is also rejected with DialogDismissed by Escape or the backdrop; use
// confirm() below to treat that as a no). Usage:
//   if (await confirm(dialogs, <ConfirmDialog title={…} message={…} confirm={t('…')} />)) …
import { useTranslation } from 'react-i18next';
import './ConfirmDialog.css';
import { DialogFrame } from './DialogFrame';
import { DialogDismissed, useDialog, type useDialogs } from './DialogStack';

export function ConfirmDialog({
  title,
  message,
  confirm,
  danger = false,
}: {
  title: string;
  message?: string;
  confirm?: string;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  const dialog = useDialog<boolean>();
  return (
    <DialogFrame
      title={title}
      role="alertdialog"
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={() => dialog.resolve(false)}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className={danger ? 'button danger' : 'button primary'}
            onClick={() => dialog.resolve(true)}
          >
            {confirm ?? t('common.ok')}
          </button>
        </>
      }
    >
      {message && <p>{message}</p>}
    </DialogFrame>
  );
}

/** Opens a ConfirmDialog; a dismissal counts as no. */
export async function confirm(dialogs: ReturnType<typeof useDialogs>, content: React.ReactElement): Promise<boolean> {
  try {
    return await dialogs.open<boolean>(content);
  } catch (error) {
    if (error instanceof DialogDismissed) return false;
    throw error;
  }
}
