// The header's guide pages as dialogs (application-spec §2: how-to-operate guide, mission,
// tips): the texts of strings.ts, in the user's language, with one close button.
import { useTranslation } from 'react-i18next';
import { DialogFrame, useDialog } from '../../components/dialogs';
import './guide.css';
import { guide } from './strings';

export type GuideTopic = 'howTo' | 'mission' | 'tips';

export function GuideDialog({ topic }: { topic: GuideTopic }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  return (
    <DialogFrame
      title={t(`guide.${topic}.title`)}
      actions={
        <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      {/* Focusable, so that a long text scrolls from the keyboard too (the dialog body scrolls). */}
      <article className="guide-text" tabIndex={0} aria-label={t(`guide.${topic}.title`)}>
        {topic === 'howTo' &&
          Object.keys(guide.en.howTo.sections).map((key) => (
            <section key={key}>
              <h3>{t(`guide.howTo.sections.${key}.heading`)}</h3>
              <p>{t(`guide.howTo.sections.${key}.body`)}</p>
            </section>
          ))}
        {topic === 'mission' &&
          Object.keys(guide.en.mission.paragraphs).map((key) => (
            <p key={key}>{t(`guide.mission.paragraphs.${key}`)}</p>
          ))}
        {topic === 'tips' && (
          <ul>
            {Object.keys(guide.en.tips.items).map((key) => (
              <li key={key}>{t(`guide.tips.items.${key}`)}</li>
            ))}
          </ul>
        )}
      </article>
    </DialogFrame>
  );
}
