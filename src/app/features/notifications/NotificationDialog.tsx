// One notification as a dialog (application-spec §4): its title, date and body, and an OK that
// resolves it; the caller marks it read on OK.
import { useTranslation } from 'react-i18next';
import type { UserNotification } from '../../../../shared/api';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { NotificationBody } from '../../components/NotificationBody';
import { currentLocale } from '../../i18n';
import { formatDateTime } from '../../components/formatDateTime';

export function NotificationDialog({
  notification,
  index,
  count,
}: {
  notification: UserNotification;
  index: number;
  count: number;
}) {
  const { t } = useTranslation();
  const dialog = useDialog();
  const texts = notification.locale;
  return (
    <DialogFrame
      title={notification.title[texts] ?? ''}
      actions={
        <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve()}>
          {t('common.ok')}
        </button>
      }
    >
      <p className="notification-meta">
        {t(`notifications.types.${notification.type}`)} ·{' '}
        {t('notifications.received', { date: formatDateTime(notification.created_at, currentLocale()) })}
        {count > 1 && <> · {t('notifications.counter', { index: index + 1, count })}</>}
      </p>
      <div lang={texts}>
        <NotificationBody
          message={notification.message[texts] ?? ''}
          html={notification.html}
          customComponent={notification.custom_component}
        />
      </div>
    </DialogFrame>
  );
}
