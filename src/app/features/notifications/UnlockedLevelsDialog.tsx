// Several level_unlocked notifications waiting at login, as one dialog (issue 33): a volunteer
// back after many unlocks reads them as one list, with what to do next, instead of clicking
// through a dozen dialogs; its OK marks every one of them read (the caller does, one request each,
// as each dialog's OK would have: application-spec §4).
import { useTranslation } from 'react-i18next';
import type { UserNotification } from '../../../../shared/api';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { currentLocale } from '../../i18n';
import { formatDateTime } from '../../components/formatDateTime';

export function UnlockedLevelsDialog({
  notifications,
  index,
  count,
}: {
  notifications: readonly UserNotification[];
  index: number;
  count: number;
}) {
  const { t } = useTranslation();
  const dialog = useDialog();
  return (
    <DialogFrame
      title={t('notifications.unlocked.title', { count: notifications.length })}
      actions={
        <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve()}>
          {t('common.ok')}
        </button>
      }
    >
      {count > 1 && <p className="notification-meta">{t('notifications.counter', { index: index + 1, count })}</p>}
      <ul className="unlocked-levels" data-testid="unlocked-levels">
        {notifications.map((notification) => (
          <li key={notification.id}>
            <span lang={notification.locale}>{notification.title[notification.locale] ?? ''}</span>
            <span className="notification-row-meta">
              {t('notifications.received', {
                date: formatDateTime(notification.created_at, currentLocale()),
              })}
            </span>
          </li>
        ))}
      </ul>
      <p>{t('notifications.unlocked.next')}</p>
    </DialogFrame>
  );
}
