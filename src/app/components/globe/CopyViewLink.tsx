// "Copy link to this view", beside the camera indicator: a link to the main screen with the
// camera's view and the visible layers (viewLink.ts), put on the clipboard with a flash
// 'Link copied'. Where the clipboard is refused (an insecure origin, a denied permission) the
// link is shown selected in a field to copy by hand; Escape or Close puts it away and the focus
// back on the button. Loaded with the globe's code (it needs the camera's constants).
import { Link2 } from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Globe } from '../../../globe/Globe';
import { useFlash } from '../Flash';
import { hashWithView, linkedLayers } from './viewLink';

/** The address of the main screen on `globe`'s view; the main screen's own query (course) is kept. */
export function viewAddress(globe: Globe): string {
  const onMain = (location.hash.replace(/^#/, '').split('?')[0] || '/') === '/';
  const hash = hashWithView(onMain ? location.hash : '#/', globe.camera.state(), linkedLayers(globe));
  return `${location.origin}${location.pathname}${location.search}${hash}`;
}

export function CopyViewLink({ globe }: { globe: Globe }) {
  const { t } = useTranslation();
  const flash = useFlash();
  const button = useRef<HTMLButtonElement>(null);
  const [byHand, setByHand] = useState<string | null>(null);

  const copy = async () => {
    const address = viewAddress(globe);
    try {
      await navigator.clipboard.writeText(address);
      setByHand(null);
      flash(t('globe.linkCopied'));
    } catch {
      setByHand(address);
    }
  };
  const putAway = () => {
    setByHand(null);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    putAway();
  };

  return (
    <div className="copy-view-link">
      {byHand !== null && (
        <div className="panel copy-view-link-field" onKeyDown={onKeyDown}>
          <label>
            <span>{t('globe.copyByHand')}</span>
            <input
              readOnly
              value={byHand}
              // The field exists to be copied from at once.
              autoFocus
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <button type="button" className="button secondary" onClick={putAway}>
            {t('globe.close')}
          </button>
        </div>
      )}
      <button
        ref={button}
        type="button"
        className="button camera-button"
        aria-label={t('globe.copyLink')}
        title={t('globe.copyLink')}
        onClick={() => void copy()}
      >
        <Link2 aria-hidden="true" size={16} />
      </button>
    </div>
  );
}
