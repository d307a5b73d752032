// The access gate of application-spec §2 and §4: while the session loads 'Loading session...'
// shows; a visitor with no session goes to /login with the originating location kept in state.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../api/session';
import { Spinner } from '../../components/Spinner';

export function AccessGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  if (session.isPending) return <Spinner text={t('common.loadingSession')} />;
  if (!session.data?.current_user) return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}
