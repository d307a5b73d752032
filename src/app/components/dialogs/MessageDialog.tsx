// A dialog with a title, a message and one button that resolves it. Usage:
//   await dialogs.open(<MessageDialog title={…} message={…} button={t('common.back')} />);
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './DialogFrame';
import { useDialog } from './DialogStack';

export function MessageDialog({ title, message, button }: { title: string; message: string; button?: string }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  return (
    <DialogFrame
      title={title}
      actions={
        <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve()}>
          {button ?? t('common.ok')}
        </button>
      }
    >
      <p>{message}</p>
    </DialogFrame>
  );
}
