// Delete account (application-spec §2, §5, §7): a confirmation first, with the password again for
// an account that has one (DeleteAccountDialog, which calls DELETE /api/current_user), then the
// session fetched again and the visitor sent to /. The profile modal and the mypage both offer
// it; `onDeleted` closes whatever dialog asked.
import { useQueryClient } from '@tanstack/react-query';
import { createElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { sessionQueryKey, useSession } from '../../api/session';
import { useDialogs } from '../../components/dialogs';
import { confirm } from '../../components/dialogs/ConfirmDialog';
import { useFlash } from '../../components/Flash';
import { DeleteAccountDialog } from './DeleteAccountDialog';

export function useDeleteAccount(onDeleted: () => void) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const flash = useFlash();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSession().data?.current_user;
  const [isPending, setPending] = useState(false);
  const ask = async () => {
    if (!user) return;
    setPending(true);
    try {
      // confirm() counts Escape or the backdrop as Cancel.
      const deleted = await confirm(dialogs, createElement(DeleteAccountDialog, { user }));
      if (!deleted) return;
      onDeleted();
      flash(t('profile.deleted'));
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      await navigate('/');
    } finally {
      setPending(false);
    }
  };
  return { ask, isPending };
}
