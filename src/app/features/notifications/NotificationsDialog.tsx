// The notifications list (application-spec §2, §4): the volunteer's messages, newest first,
// filtered by type (captain_message, level_unlocked, no_group, or all); each row a button with
// the title, the type and the date in the user's language, unread ones marked. A row opens the
// message, and OK marks it read. The list is the header's query, refetched in the background.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationType } from '../../../../shared/api';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { Segmented } from '../../components/Segmented';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import { formatDateTime } from '../../components/formatDateTime';
import './notifications.css';
import { useNotificationList } from '../../api/notifications';
import { useReadNotification } from './useNotifications';

const FILTERS = ['all', 'captain_message', 'level_unlocked', 'no_group'] as const;
type Filter = (typeof FILTERS)[number];

export function NotificationsDialog() {
  const { t } = useTranslation();
  const dialog = useDialog();
  const list = useNotificationList();
  const read = useReadNotification();
  const [filter, setFilter] = useState<Filter>('all');
  const shown = (list.data ?? []).filter((entry) => filter === 'all' || entry.type === (filter as NotificationType));

  return (
    <DialogFrame
      title={t('notifications.listTitle')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      <Segmented
        legend={t('notifications.filter')}
        name="notification-filter"
        options={FILTERS}
        value={filter}
        label={(option) => (option === 'all' ? t('notifications.all') : t(`notifications.types.${option}`))}
        onChange={setFilter}
      />
      {list.isPending ? (
        <Spinner text={t('notifications.loading')} />
      ) : list.isError ? (
        <div role="alert">
          <p>{t('notifications.error')}</p>
          <button type="button" className="button" onClick={() => void list.refetch()}>
            {t('notifications.retry')}
          </button>
        </div>
      ) : shown.length === 0 ? (
        <p>{t('notifications.empty')}</p>
      ) : (
        <ul className="notification-list" data-testid="notification-list">
          {shown.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="notification-row"
                data-unread={!entry.read || undefined}
                onClick={() => void read(entry)}
              >
                <span className="notification-row-title" lang={entry.locale}>
                  {!entry.read && <span className="notification-unread">{t('notifications.unread')}</span>}
                  {entry.title[entry.locale] ?? ''}
                </span>
                <span className="notification-row-meta">
                  {t(`notifications.types.${entry.type}`)} ·{' '}
                  <time dateTime={entry.created_at}>{formatDateTime(entry.created_at, currentLocale())}</time>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </DialogFrame>
  );
}
