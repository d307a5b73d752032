// The gear of the main screen's bottom buttons (application-spec §2): opens the settings panel
// through the dialog stack (focus returns to the gear when it closes) and, while the main screen
// is shown, keeps the globe in step with the settings. An object chosen in the panel is flown to
// at its preset's saved view. Its key, S, is printed on the button (not while typing or while a
// dialog is open).
import { Settings as Gear } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { viewTarget } from '../../../globe/layers/pretty-picture';
import type { PrettyPicture } from '../../../../shared/prettyPicture';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { useGlobe } from '../../components/globe/GlobeContext';
import { useShortcut } from '../../components/shortcuts';
import { SettingsDialog } from './SettingsDialog';
import { useSettingsOnGlobe } from './useSettingsOnGlobe';

export const SETTINGS_KEY = 's';

export function SettingsButton() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const globe = useGlobe();
  const pictures = useSettingsOnGlobe(globe);

  const open = useCallback(async () => {
    let which: PrettyPicture | null;
    try {
      which = await dialogs.open<PrettyPicture | null>(<SettingsDialog />);
    } catch (error) {
      if (error instanceof DialogDismissed) return;
      throw error;
    }
    const layer = which && pictures.current.get(which);
    if (!layer || !globe) return;
    const meta = await layer.loaded.catch(() => null);
    if (meta) globe.jumpTo(viewTarget(meta.preset.view));
  }, [dialogs, globe, pictures]);
  useShortcut(
    SETTINGS_KEY,
    useCallback(() => void open(), [open]),
  );

  return (
    <button
      type="button"
      className="button cruise-button"
      onClick={() => void open()}
      aria-haspopup="dialog"
      aria-keyshortcuts="S"
    >
      <Gear aria-hidden="true" size={20} />
      <span>{t('settings.open')}</span>
      <kbd>S</kbd>
    </button>
  );
}
