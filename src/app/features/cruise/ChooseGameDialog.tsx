// Choosing the training or review course asks whether to continue or start a new game
// (application-spec §4); a new game deletes the course's quests.
import { useTranslation } from 'react-i18next';
import type { CourseId } from '../../../../shared/enums';
import { DialogFrame, useDialog } from '../../components/dialogs';

export function ChooseGameDialog({ course }: { course: CourseId }) {
  const { t } = useTranslation();
  const dialog = useDialog<'continue' | 'new'>();
  return (
    <DialogFrame
      title={t('cruise.chooseGame.title', { course: t(`home.courses.${course}`) })}
      actions={
        <>
          <button type="button" className="button" onClick={() => dialog.resolve('new')}>
            {t('cruise.chooseGame.newGame')}
          </button>
          <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve('continue')}>
            {t('cruise.chooseGame.continue')}
          </button>
        </>
      }
    >
      <p>{t('cruise.chooseGame.message')}</p>
    </DialogFrame>
  );
}
