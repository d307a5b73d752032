// Applies the settings to the globe through the layers' update step: the survey layers' colour
// parameters, the pretty-picture layers (added while expert mode is on, with the display the
// settings give) and the retina resolution. Returns the pretty-picture layers by object, so that
// the panel's "fly to" can read a preset's saved view.
import { useEffect, useMemo, useRef } from 'react';
import type { Globe } from '../../../globe/Globe';
import { PrettyPictureLayer } from '../../../globe/layers/pretty-picture';
import { PRETTY_PICTURES, type PrettyPicture } from '../../../shared/prettyPicture';
import { SurveyLayer } from '../../../globe/layers/survey';
import { dataRepositoryUrl } from '../../../core/dataRepository';
import { getSettings, highDensityScreen, prettyDisplay, surveyColorParams, useSettings } from './settings';

function dataHost(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content || null;
}

export function useSettingsOnGlobe(globe: Globe | null): React.RefObject<Map<PrettyPicture, PrettyPictureLayer>> {
  const settings = useSettings();
  const pictures = useRef(new Map<PrettyPicture, PrettyPictureLayer>());
  const colorParams = useMemo(() => surveyColorParams(settings), [settings]);

  useEffect(() => {
    if (!globe) return;
    for (const layer of globe.layersNamed('survey')) if (layer instanceof SurveyLayer) layer.update({ colorParams });
  }, [globe, colorParams]);

  useEffect(() => {
    globe?.setRetina(settings.retina || !highDensityScreen());
  }, [globe, settings.retina]);

  useEffect(() => {
    if (!globe || !settings.expert) return;
    const dataRepository = dataRepositoryUrl(location, dataHost());
    const added = pictures.current;
    for (const which of PRETTY_PICTURES) {
      const layer = new PrettyPictureLayer({ dataRepository, which });
      try {
        globe.addLayer(layer);
      } catch (error) {
        // No float textures (warned by the layer, viewer-spec §8): the sky stays without them.
        console.error(`pretty picture ${which} cannot be shown`, error);
        continue;
      }
      added.set(which, layer);
      void layer.loaded.then((meta) => layer.update({ display: prettyDisplay(getSettings(), meta.filters) }));
    }
    return () => {
      for (const layer of added.values()) globe.removeLayer(layer);
      added.clear();
    };
  }, [globe, settings.expert]);

  useEffect(() => {
    for (const layer of pictures.current.values())
      void layer.loaded.then((meta) => layer.update({ display: prettyDisplay(settings, meta.filters) }));
  }, [settings]);

  return pictures;
}
