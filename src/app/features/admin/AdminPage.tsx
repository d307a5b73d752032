// The frame of an administrator's page (/admin/notifications, /admin/science, /admin/courses): the
// back button and the title, 'Loading...' while the session loads, application-spec §3's 'You
// must be logged in to view this page.' for anyone who may not see it (the notifications
// screen's words for non-admins, word for word); the pages beyond the spec (research dashboard,
// courses) tell a logged-in volunteer instead that the page is for administrators. An
// administrator sees the page's content. The administrators' menu is a drop-down at the header's
// end (adminMenuSlot.tsx) rather than floating over the page's tables.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../api/session';
import { AdminMenuSlot } from './adminMenuSlot';
import './admin.css';

export function AdminPage({
  title,
  children,
  volunteerRefusal = 'notLoggedIn',
}: {
  title: string;
  children: () => ReactNode;
  /** What a logged-in volunteer reads: the spec's 'notLoggedIn', or 'forAdministrators'. */
  volunteerRefusal?: 'notLoggedIn' | 'forAdministrators';
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  let content;
  if (session.isPending) content = <p>{t('admin.loading')}</p>;
  else if (!session.data?.current_user) content = <p role="alert">{t('admin.notLoggedIn')}</p>;
  else if (!session.data.current_user.admin) content = <p role="alert">{t(`admin.${volunteerRefusal}`)}</p>;
  else content = children();
  return (
    <main className="admin-page panel">
      <header className="admin-header">
        <button type="button" className="button" onClick={() => void navigate('/')}>
          {t('common.back')}
        </button>
        <h1>{title}</h1>
        <AdminMenuSlot />
      </header>
      {content}
    </main>
  );
}
