// The set-nickname dialog (application-spec §2, §5, §8). Once text is typed its availability is
// looked up live (GET /api/nicknames/{nickname}, a count of 0 means free); React Query aborts
// the pending look-up when the text changes, as its signal is handed to the request. Invalid or
// taken input shakes the dialog and sends nothing; a failed save (the name taken meanwhile)
// shakes it too. Resolves once PUT /api/current_user has saved the nickname.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUserResponse, ErrorResponse, NicknameCountResponse } from '../../../../shared/api';
import { nicknameErrors } from '../../../../shared/validation';
import { RequestError, request } from '../../api/request';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { TextField } from '../../components/Field';
import { localizeMessages } from '../../i18n/messages';

export function nicknameQueryKey(nickname: string) {
  return ['nickname', nickname] as const;
}

export function NicknameDialog({ initial = '' }: { initial?: string }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  const [nickname, setNickname] = useState(initial);
  const [touched, setTouched] = useState(false);
  const trimmed = nickname.trim();
  const lookup = useQuery({
    queryKey: nicknameQueryKey(trimmed),
    queryFn: ({ signal }) =>
      request<NicknameCountResponse>('get', '/api/nicknames/{nickname}', { nickname: trimmed }, { signal }),
    enabled: trimmed !== '' && nicknameErrors(trimmed).length === 0,
    staleTime: 0,
    gcTime: 0,
  });
  const save = useMutation({
    mutationFn: () => request<CurrentUserResponse>('put', '/api/current_user', { nickname: trimmed }),
    onSuccess: () => dialog.resolve(),
    onError: () => dialog.shake(),
  });
  const taken = (lookup.data?.count ?? 0) > 0;
  const savedTaken =
    save.error instanceof RequestError &&
    (save.error.status === 409 || !!(save.error.data as ErrorResponse | undefined)?.errors?.nickname);
  const errors = localizeMessages(nicknameErrors(nickname), t);
  if ((taken || savedTaken) && errors.length === 0) errors.push(t('gate.nickname.taken'));

  function submit() {
    setTouched(true);
    if (errors.length > 0 || lookup.isFetching) return dialog.shake();
    save.mutate();
  }

  return (
    <DialogFrame
      title={t('gate.nickname.title')}
      onSubmit={submit}
      actions={
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('gate.nickname.save')}
        </button>
      }
    >
      <p>{t('gate.nickname.intro')}</p>
      <TextField
        label={t('gate.nickname.label')}
        autoComplete="nickname"
        autoFocus
        value={nickname}
        onChange={(value) => {
          setNickname(value);
          save.reset();
          if (value.trim() !== '') setTouched(true);
        }}
        onBlur={() => setTouched(true)}
        errors={errors}
        touched={touched}
      />
      <p className="field-status" aria-live="polite" data-testid="nickname-status">
        {trimmed === '' || errors.length > 0
          ? ''
          : lookup.isFetching
            ? t('gate.nickname.checking')
            : lookup.data
              ? t('gate.nickname.available')
              : ''}
      </p>
    </DialogFrame>
  );
}
