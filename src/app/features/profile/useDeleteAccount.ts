// Delete account (application-spec §2, §5, §7): a confirmation first, then DELETE
// /api/current_user, the session fetched again and the visitor sent to /. The profile modal and
// the mypage both offer it; `onDeleted` closes whatever dialog asked.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { request } from '../../api/request';
import { sessionQueryKey } from '../../api/session';
import { useDialogs } from '../../components/dialogs';
import { ConfirmDialog, confirm } from '../../components/dialogs/ConfirmDialog';
import { useFlash } from '../../components/Flash';

export function useDeleteAccount(onDeleted: () => void) {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const flash = useFlash();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => request<void>('delete', '/api/current_user'),
    onSuccess: async () => {
      onDeleted();
      flash(t('profile.deleted'));
      await queryClient.refetchQueries({ queryKey: sessionQueryKey });
      await navigate('/');
    },
  });
  const ask = async () => {
    const sure = await confirm(
      dialogs,
      createElement(ConfirmDialog, {
        title: t('profile.deleteAccount'),
        message: t('profile.deleteConfirm'),
        confirm: t('profile.deleteAccount'),
        danger: true,
      }),
    );
    if (sure) remove.mutate();
  };
  return { ask, isPending: remove.isPending };
}
