// /admin/notifications (application-spec §2, §6, §7): administrators only; others see 'You must
// be logged in to view this page.', and 'Loading...' shows while the session loads. A back
// button, add buttons above and below the table, and the table of every notification, newest
// first: ID, type, title as lines of locale:text, created and publish times, edit and delete
// (after 'delete?').
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LOCALES, type AdminNotification } from '../../../../shared/api';
import { request } from '../../api/request';
import { ConfirmDialog, confirm } from '../../components/dialogs/ConfirmDialog';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { useFlash } from '../../components/Flash';
import { currentLocale } from '../../i18n';
import { formatDateTime } from '../../components/formatDateTime';
import { AdminPage } from './AdminPage';
import { NotificationEditDialog } from './NotificationEditDialog';
import './admin.css';

export const adminNotificationsQueryKey = ['admin', 'notifications'] as const;

function PublishTime({ notification }: { notification: AdminNotification }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  if (!notification.valid_after && !notification.valid_before) return <>{t('admin.notifications.always')}</>;
  return (
    <>
      {notification.valid_after && (
        <div>{t('admin.notifications.from', { date: formatDateTime(notification.valid_after, locale) })}</div>
      )}
      {notification.valid_before && (
        <div>{t('admin.notifications.until', { date: formatDateTime(notification.valid_before, locale) })}</div>
      )}
    </>
  );
}

function NotificationTable() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const flash = useFlash();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: adminNotificationsQueryKey,
    queryFn: ({ signal }) => request<AdminNotification[]>('get', '/api/admin/notifications', undefined, { signal }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => request<void>('delete', '/api/notifications/{id}', { id }),
    onSuccess: async () => {
      flash(t('admin.notifications.deleted'));
      await queryClient.invalidateQueries({ queryKey: adminNotificationsQueryKey });
    },
  });

  async function edit(notification?: AdminNotification) {
    try {
      await dialogs.open<AdminNotification>(<NotificationEditDialog notification={notification} />, {
        className: 'wide',
        dismissable: false,
      });
    } catch (error) {
      if (error === undefined || error instanceof DialogDismissed) return;
      throw error;
    }
    flash(t('admin.notifications.saved'));
    await queryClient.invalidateQueries({ queryKey: adminNotificationsQueryKey });
  }

  async function askDelete(notification: AdminNotification) {
    if (
      await confirm(
        dialogs,
        <ConfirmDialog
          title={t('admin.notifications.deleteConfirm')}
          danger
          confirm={t('admin.notifications.delete')}
        />,
      )
    )
      remove.mutate(notification.id);
  }

  const add = (
    <button type="button" className="button primary" onClick={() => void edit()}>
      {t('admin.notifications.add')}
    </button>
  );
  const locale = currentLocale();
  return (
    <>
      <div className="admin-actions">{add}</div>
      {list.isPending ? (
        <p>{t('admin.loading')}</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.notifications.columns.id')}</th>
                <th scope="col">{t('admin.notifications.columns.type')}</th>
                <th scope="col">{t('admin.notifications.columns.title')}</th>
                <th scope="col">{t('admin.notifications.columns.created')}</th>
                <th scope="col">{t('admin.notifications.columns.publish')}</th>
                <th scope="col">{t('admin.notifications.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {(list.data ?? []).map((notification) => (
                <tr key={notification.id}>
                  <td>{notification.id}</td>
                  <td>{t(`notifications.types.${notification.type}`)}</td>
                  <td>
                    {LOCALES.filter((l) => notification.title[l] !== undefined).map((l) => (
                      <div key={l} lang={l}>
                        {l}:{notification.title[l]}
                      </div>
                    ))}
                  </td>
                  <td>{formatDateTime(notification.created_at, locale)}</td>
                  <td>
                    <PublishTime notification={notification} />
                  </td>
                  <td className="admin-row-actions">
                    <button
                      type="button"
                      className="button"
                      aria-label={`${t('admin.notifications.edit')} ${notification.id}`}
                      onClick={() => void edit(notification)}
                    >
                      {t('admin.notifications.edit')}
                    </button>
                    <button
                      type="button"
                      className="button danger"
                      aria-label={`${t('admin.notifications.delete')} ${notification.id}`}
                      onClick={() => void askDelete(notification)}
                    >
                      {t('admin.notifications.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data?.length === 0 && <p>{t('admin.notifications.empty')}</p>}
        </div>
      )}
      <div className="admin-actions">{add}</div>
    </>
  );
}

export function AdminNotificationsPage() {
  const { t } = useTranslation();
  return <AdminPage title={t('admin.notifications.title')}>{() => <NotificationTable />}</AdminPage>;
}
