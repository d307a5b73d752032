// The camera of the bottom buttons (application-spec §2: camera = save screenshot): saves the
// globe as a PNG, also by its key, C (printed on the button; not while typing or while a dialog
// is open). A browser that cannot gets §8's alerts.
import { Camera } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlash } from '../../components/Flash';
import { useGlobe } from '../../components/globe/GlobeContext';
import { useShortcut } from '../../components/shortcuts';
import { captureGlobe, download, NoCanvasContext, screenshotName, ScreenshotNotSupported } from './screenshot';

export const CAMERA_KEY = 'c';

export function CameraButton() {
  const { t } = useTranslation();
  const globe = useGlobe();
  const flash = useFlash();
  const [busy, setBusy] = useState(false);
  const save = useCallback(() => {
    if (!globe || busy) return;
    setBusy(true);
    captureGlobe(globe)
      .then((blob) => {
        download(blob, screenshotName(new Date()));
        flash(t('camera.saved'));
      })
      .catch((error: unknown) => {
        if (error instanceof ScreenshotNotSupported) window.alert(t('camera.notSupported'));
        else if (error instanceof NoCanvasContext) window.alert(t('camera.noContext'));
        else throw error;
      })
      .finally(() => setBusy(false));
  }, [globe, busy, flash, t]);
  useShortcut(CAMERA_KEY, save);
  return (
    <button
      type="button"
      className="button cruise-button"
      onClick={save}
      disabled={!globe}
      aria-busy={busy || undefined}
      aria-keyshortcuts="C"
    >
      <Camera aria-hidden="true" size={20} />
      <span>{t('camera.open')}</span>
      <kbd>C</kbd>
    </button>
  );
}
