// The souvenirs (application-spec §2, §9): named galaxy images revealed as 7 × 8 jigsaw pieces,
// one piece for every OBJECTS_PER_PIECE answers of a course, with descriptions and related links.
import { useTranslation } from 'react-i18next';
import type { Souvenir } from '../../../../shared/catalogue';
import { skyDataUrl } from '../../api/dataRepository';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { OBJECTS_PER_PIECE } from '../../developerMode';
import { currentLocale } from '../../i18n';
import { JIGSAW_COLUMNS, JIGSAW_ROWS, PIECES_PER_JIGSAW, piecesPerSouvenir, revealedCells } from './jigsaw';
import './souvenirs.css';
import { useSouvenirs } from './useSouvenirs';

export function SouvenirsDialog() {
  const { t } = useTranslation();
  const dialog = useDialog();
  const data = useSouvenirs();
  let content: React.ReactNode;
  if (data.isPending) content = <Spinner text={t('souvenirs.loading')} />;
  else if (data.isError || !data.souvenirs || data.pieces === undefined)
    content = (
      <div role="alert">
        <p>{t('souvenirs.error')}</p>
        <button type="button" className="button" onClick={() => void data.refetch()}>
          {t('souvenirs.retry')}
        </button>
      </div>
    );
  else {
    const shown = piecesPerSouvenir(data.pieces, data.souvenirs.length);
    content = (
      <>
        <p>{t('souvenirs.intro', { perPiece: OBJECTS_PER_PIECE, pieces: PIECES_PER_JIGSAW })}</p>
        <p data-testid="souvenir-pieces">{t('souvenirs.earned', { count: data.pieces })}</p>
        <ul className="souvenir-list">
          {data.souvenirs.map((souvenir, index) => (
            <SouvenirCard key={souvenir.id} souvenir={souvenir} revealed={shown[index]} />
          ))}
        </ul>
      </>
    );
  }
  return (
    <DialogFrame
      title={t('souvenirs.title')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      {content}
    </DialogFrame>
  );
}

function SouvenirCard({ souvenir, revealed }: { souvenir: Souvenir; revealed: number }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const name = souvenir.name[locale] ?? souvenir.name.en;
  const cells = revealedCells(revealed);
  const headingId = `souvenir-${souvenir.id}`;
  return (
    <li className="souvenir" aria-labelledby={headingId} data-testid="souvenir">
      <div
        className="souvenir-jigsaw"
        role="img"
        aria-label={t('souvenirs.imageAlt', { name, revealed, total: PIECES_PER_JIGSAW })}
        style={{ aspectRatio: `${JIGSAW_COLUMNS} / ${JIGSAW_ROWS}` }}
      >
        {revealed > 0 && <img src={skyDataUrl(souvenir.image)} alt="" />}
        <div className="souvenir-cover" aria-hidden="true">
          {Array.from({ length: PIECES_PER_JIGSAW }, (_, cell) => (
            <span key={cell} className="souvenir-piece" data-revealed={cells.has(cell) || undefined} />
          ))}
        </div>
      </div>
      <div className="souvenir-text">
        <h3 id={headingId}>{name}</h3>
        <p className="souvenir-progress">
          {revealed === PIECES_PER_JIGSAW
            ? t('souvenirs.complete')
            : t('souvenirs.progress', { revealed, total: PIECES_PER_JIGSAW })}
        </p>
        <p>{souvenir.description[locale] ?? souvenir.description.en}</p>
        {souvenir.links.length > 0 && (
          <p>
            {souvenir.links.map((link) => (
              <a
                key={link}
                href={link}
                target="_blank"
                rel="noreferrer"
                className="link"
                aria-label={t('souvenirs.linkAbout', { name })}
              >
                {t('souvenirs.links')}
              </a>
            ))}
          </p>
        )}
      </div>
    </li>
  );
}
