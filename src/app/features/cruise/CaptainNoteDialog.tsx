// The captain-note review dialog (application-spec §4 Submit): for training and tng_review
// targets, before the answer is posted, the volunteer's answer beside the captain's with the
// captain's comments, and the captain's picture of the galaxy (img_name, a cut-out in the sky
// data) with its caption. Retry (R) cancels the submission (resolves false); Next (Enter) continues.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Answer } from '../../../../shared/api';
import type { CaptainNote, Morphology } from '../../../../shared/catalogue';
import { skyDataUrl } from '../../api/dataRepository';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { currentLocale } from '../../i18n';
import { FEATURES } from './answerSteps';

function Summary({ answer }: { answer: Morphology }) {
  const { t } = useTranslation();
  const features = FEATURES.filter((feature) => answer.interaction === 'yes' && answer[feature]);
  return (
    <>
      {t(`cruise.galaxyType.${answer.galaxy_type}`)} · {t('cruise.interacting')}:{' '}
      {t(`cruise.interaction.${answer.interaction}`)}
      {features.length > 0 && <> · {features.map((feature) => t(`cruise.features.${feature}`)).join(', ')}</>}
    </>
  );
}

export function CaptainNoteDialog({ note, answer }: { note: CaptainNote; answer: Answer }) {
  const { t } = useTranslation();
  const dialog = useDialog<boolean>();
  const locale = currentLocale();
  // A picture that cannot load leaves its caption alone rather than a broken image.
  const [imageFailed, setImageFailed] = useState(false);
  useEffect(() => {
    const retry = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === 'r' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        dialog.resolve(false);
      }
    };
    window.addEventListener('keydown', retry);
    return () => window.removeEventListener('keydown', retry);
  }, [dialog]);
  return (
    <DialogFrame
      title={note.review_type === 'tng_review' ? t('cruise.note.tngTitle') : t('cruise.note.title')}
      actions={
        <>
          <button type="button" className="button" onClick={() => dialog.resolve(false)}>
            <kbd>R</kbd> {t('cruise.note.retry')}
          </button>
          <button type="button" className="button primary" autoFocus onClick={() => dialog.resolve(true)}>
            <kbd>Enter</kbd> {t('cruise.note.next')}
          </button>
        </>
      }
    >
      <dl className="captain-note" data-testid="captain-note">
        <dt>{t('cruise.note.yours')}</dt>
        <dd data-testid="note-yours">
          <Summary answer={answer} />
        </dd>
        <dt>{t('cruise.note.captains')}</dt>
        <dd data-testid="note-captains">
          <Summary answer={note.answer} />
        </dd>
      </dl>
      <figure className="captain-note-figure">
        {!imageFailed && (
          <img
            src={skyDataUrl(note.img_name)}
            alt={t('cruise.note.imageAlt')}
            width={256}
            height={256}
            onError={() => setImageFailed(true)}
            data-testid="note-image"
          />
        )}
        <figcaption className="captain-note-caption">{note.img_caption[locale]}</figcaption>
      </figure>
      <p>{note.comments[locale]}</p>
    </DialogFrame>
  );
}
