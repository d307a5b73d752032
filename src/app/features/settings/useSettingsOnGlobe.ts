// Applies the settings to the globe through the layers' update step: the survey layers' colour
// parameters, the pretty-picture layers (components/globe/prettyPictures.ts: in the normal view
// each shows as the zoom reaches its object, in expert mode at every zoom, with the display the
// settings give) and the retina resolution; the base layers' own settings (the constellation
// names, the lines, the stars' colours) are GlobeView's. Returns the pretty-picture layers by
// object, so that the panel's "fly to" can read a preset's saved view.
import { useEffect, useMemo, useRef } from 'react';
import type { Globe } from '../../../globe/Globe';
import type { PrettyPictureLayer } from '../../../globe/layers/pretty-picture';
import { PRETTY_PICTURES, type PrettyPicture } from '../../../../shared/prettyPicture';
import { SurveyLayer } from '../../../globe/layers/survey';
import { prettyPictureLayer } from '../../components/globe/prettyPictures';
import { highDensityScreen, prettyDisplay, surveyColorParams, useSettings } from '../../components/globe/settings';

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
    if (!globe) return;
    const found = pictures.current;
    found.clear();
    for (const which of PRETTY_PICTURES) {
      const layer = prettyPictureLayer(globe, which);
      if (!layer) continue;
      found.set(which, layer);
      // Expert mode shows the pictures at every zoom; the normal view as the zoom reaches them.
      layer.update({ zoomFade: !settings.expert });
    }
  }, [globe, settings.expert]);

  useEffect(() => {
    for (const layer of pictures.current.values())
      void layer.loaded.then((meta) => layer.update({ display: prettyDisplay(settings, meta.filters) }));
  }, [globe, settings]);

  return pictures;
}
