// Mounts the administrator's floating menu for administrators only; its code is a separate chunk
// (React.lazy), so that a volunteer never downloads it.
import { lazy, Suspense } from 'react';
import { useSession } from '../../api/session';

const AdminMenu = lazy(async () => ({ default: (await import('./AdminMenu')).AdminMenu }));

export function AdminMenuLoader() {
  const session = useSession();
  if (!session.data?.current_user?.admin) return null;
  return (
    <Suspense fallback={null}>
      <AdminMenu />
    </Suspense>
  );
}
