// The frame of an administrator's page (/admin/notifications, /admin/science): the back button and
// the title, 'Loading...' while the session loads, and application-spec §3's 'You must be logged
// in to view this page.' for anyone who is not an administrator; the page's content otherwise.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../api/session';
import './admin.css';

export function AdminPage({ title, children }: { title: string; children: () => ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  let content;
  if (session.isPending) content = <p>{t('admin.loading')}</p>;
  else if (!session.data?.current_user?.admin) content = <p role="alert">{t('admin.notLoggedIn')}</p>;
  else content = children();
  return (
    <main className="admin-page panel">
      <header className="admin-header">
        <button type="button" className="button" onClick={() => void navigate('/')}>
          {t('common.back')}
        </button>
        <h1>{title}</h1>
      </header>
      {content}
    </main>
  );
}
