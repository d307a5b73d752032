// The settings panel (application-spec §2): colour or grayscale; dark, normal or bright; expert
// mode with the filter choice, the brightness slider and the pretty pictures to fly to; the
// retina option on high-density screens; the constellation names' writing; the grid and
// constellation lines; true star colours. Every change applies at once (the globe reads the
// settings store); the dialog resolves with the object to fly to, or null when closed.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PRETTY_PICTURES, type PrettyPicture } from '../../../../shared/prettyPicture';
import { ChoiceGroup } from '../../components/ChoiceGroup';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { currentLocale } from '../../i18n';
import {
  BRIGHTNESS_STEPS,
  COLOR_MODES,
  CONSTELLATION_NAMES,
  EXPERT_BRIGHTNESS,
  EXPERT_FILTERS,
  SKY_LINES,
  highDensityScreen,
  setSettings,
  useSettings,
  type BrightnessStep,
  type ColorMode,
  type ConstellationNames,
  type ExpertFilter,
  type SkyLines,
} from '../../components/globe/settings';
import './settings.css';

const LOG_MIN = Math.log10(EXPERT_BRIGHTNESS.min);
const LOG_MAX = Math.log10(EXPERT_BRIGHTNESS.max);

export function SettingsDialog() {
  const { t } = useTranslation();
  const dialog = useDialog<PrettyPicture | null>();
  const settings = useSettings();
  const sliderId = useId();
  const expertHintId = useId();
  const beta = Math.round(settings.expertBrightness).toLocaleString(currentLocale());
  return (
    <DialogFrame
      title={t('settings.title')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve(null)}>
          {t('settings.close')}
        </button>
      }
    >
      <ChoiceGroup
        legend={t('settings.colorMode')}
        type="radio"
        name="settings-color"
        className="inline"
        options={COLOR_MODES.map((mode) => ({ value: mode, label: t(`settings.colorModes.${mode}`) }))}
        selected={[settings.colorMode]}
        onChange={([mode]) => setSettings({ colorMode: mode as ColorMode })}
        touched={false}
      />
      {!settings.expert && (
        <ChoiceGroup
          legend={t('settings.brightness')}
          type="radio"
          name="settings-brightness"
          className="inline"
          options={BRIGHTNESS_STEPS.map((step) => ({ value: step, label: t(`settings.brightnessSteps.${step}`) }))}
          selected={[settings.brightness]}
          onChange={([step]) => setSettings({ brightness: step as BrightnessStep })}
          touched={false}
        />
      )}
      <label className="choice">
        <input
          type="checkbox"
          checked={settings.expert}
          aria-describedby={expertHintId}
          onChange={(event) => setSettings({ expert: event.target.checked })}
        />
        <span>{t('settings.expert')}</span>
      </label>
      <p id={expertHintId} className="field-hint">
        {t('settings.expertHint')}
      </p>
      {settings.expert && (
        <>
          <ChoiceGroup
            legend={t('settings.filter')}
            type="radio"
            name="settings-filter"
            className="inline"
            options={EXPERT_FILTERS.map((filter) => ({ value: filter, label: t(`settings.filters.${filter}`) }))}
            selected={[settings.filter]}
            onChange={([filter]) => setSettings({ filter: filter as ExpertFilter })}
            touched={false}
          />
          <div className="settings-slider">
            <label htmlFor={sliderId}>{t('settings.expertBrightness', { value: beta })}</label>
            <input
              id={sliderId}
              type="range"
              min={LOG_MIN}
              max={LOG_MAX}
              step={0.01}
              value={Math.log10(settings.expertBrightness)}
              aria-valuetext={beta}
              onChange={(event) =>
                setSettings({
                  expertBrightness: Math.min(
                    EXPERT_BRIGHTNESS.max,
                    Math.max(EXPERT_BRIGHTNESS.min, 10 ** Number(event.target.value)),
                  ),
                })
              }
            />
          </div>
          <fieldset className="choice-group">
            <legend>{t('settings.pictures')}</legend>
            <p className="field-hint">{t('settings.pictureHint')}</p>
            <div className="settings-pictures">
              {PRETTY_PICTURES.map((which) => (
                <button key={which} type="button" className="button" onClick={() => dialog.resolve(which)}>
                  {t(`settings.objects.${which}`)}
                </button>
              ))}
            </div>
          </fieldset>
        </>
      )}
      <ChoiceGroup
        legend={t('settings.constellationNames')}
        type="radio"
        name="settings-constellation-names"
        className="inline"
        options={CONSTELLATION_NAMES.map((names) => ({
          value: names,
          label: t(`settings.constellationWritings.${names}`),
        }))}
        selected={[settings.constellationNames]}
        onChange={([names]) => setSettings({ constellationNames: names as ConstellationNames })}
        touched={false}
      />
      <ChoiceGroup
        legend={t('settings.skyLines')}
        type="radio"
        name="settings-sky-lines"
        className="inline"
        options={SKY_LINES.map((mode) => ({ value: mode, label: t(`settings.skyLineModes.${mode}`) }))}
        selected={[settings.skyLines]}
        onChange={([mode]) => setSettings({ skyLines: mode as SkyLines })}
        touched={false}
      />
      <label className="choice">
        <input
          type="checkbox"
          checked={settings.trueStarColors}
          onChange={(event) => setSettings({ trueStarColors: event.target.checked })}
        />
        <span>{t('settings.trueStarColors')}</span>
      </label>
      {highDensityScreen() && (
        <label className="choice">
          <input
            type="checkbox"
            checked={settings.retina}
            onChange={(event) => setSettings({ retina: event.target.checked })}
          />
          <span>{t('settings.retina')}</span>
        </label>
      )}
    </DialogFrame>
  );
}
