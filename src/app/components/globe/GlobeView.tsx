// The thin React wrapper around src/globe (ARCHITECTURE.md: the globe never imports React).
// It owns one Globe for the lifetime of the canvas, adds the base layers and hands the globe to
// GlobeLoader, which shares it through GlobeContext (this file is loaded after the first paint).
// On the main route the view is kept in the address (viewLink.ts). The base layers follow the
// settings on every screen: the constellations are named in the writing the settings choose (by
// default the page's: Kanji for Japanese, English otherwise), the grid and constellation lines
// fade out near a galaxy, stay or hide, and the stars take the fixed or their true colours.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dataRepositoryUrl } from '../../../../core/dataRepository';
import { throttle } from '../../../../core/throttle';
import { Globe } from '../../../globe/Globe';
import { ConstellationLayer } from '../../../globe/layers/constellations';
import { DeepSkyLayer } from '../../../globe/layers/deep-sky';
import { GridLayer } from '../../../globe/layers/grid';
import { HipsLayer } from '../../../globe/layers/hips';
import { LevelOutlineLayer } from '../../../globe/layers/level-outlines';
import { MilkyWayLayer } from '../../../globe/layers/milky-way';
import { PathLayer } from '../../../globe/layers/path';
import { SpriteLayer } from '../../../globe/layers/sprites';
import { TargetLayer } from '../../../globe/layers/targets';
import { StarLayer } from '../../../globe/layers/stars';
import { SurveyLayer } from '../../../globe/layers/survey';
import { constellationLanguageOf, skyLineOptions, useSettings } from './settings';
import { useGlobePublisher } from './GlobeContext';
import { openingHash } from './openingHash';
import {
  APPLICATION_HIPS_OPTIONS,
  APPLICATION_SURVEYS,
  APPLICATION_SURVEY_OPTIONS,
  COURSE_HIPS_OPTIONS,
} from './presets';
import { ImageFields } from './imageFields';
import { addPrettyPictures } from './prettyPictures';
import { hashWithView, linkedLayers, showLinkedLayers, viewFromHash } from './viewLink';

function dataHost(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content || null;
}

/** Routes whose address follows the view (the login tour must not rewrite its own link). */
function followsView(hash: string): boolean {
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  return path === '/';
}

export function GlobeView({ retina = true }: { retina?: boolean }) {
  const { t, i18n } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const baseLayers = useRef<{ constellations: ConstellationLayer; grid: GridLayer; stars: StarLayer } | null>(null);
  const settings = useSettings();
  const language = constellationLanguageOf(settings, i18n.language);
  const { ready: setGlobe, failed } = useGlobePublisher();
  useEffect(() => {
    if (!canvas.current) return;
    let created: Globe;
    try {
      created = new Globe(canvas.current, { retina });
    } catch (error) {
      // No WebGL2: the globe has alerted (viewer-spec §8); the loader shows a readable page.
      failed(error instanceof Error ? error.message : String(error));
      return;
    }
    created.setCamera(viewFromHash(openingHash));
    const dataRepository = dataRepositoryUrl(location, dataHost());
    // viewer-spec §1's order: constellations, the Milky Way, the grid, the stars, the surveys,
    // HiPS; the deep-sky objects (galaxies, nebulae, clusters) with the stars, their light added.
    const constellations = new ConstellationLayer();
    const milkyWay = new MilkyWayLayer({ dataRepository });
    const grid = new GridLayer();
    const stars = new StarLayer(dataRepository);
    const deepSky = new DeepSkyLayer({ dataRepository });
    baseLayers.current = { constellations, grid, stars };
    created.addLayer(constellations);
    created.addLayer(milkyWay);
    created.addLayer(grid);
    created.addLayer(stars);
    created.addLayer(deepSky);
    // The three surveys' tiles with the application's colour settings (viewer-spec §3); the
    // deep-sky objects give way to their images, and to the pretty pictures' (imageFields.ts).
    const imageFields = new ImageFields(deepSky);
    for (const { name, stencilBase } of APPLICATION_SURVEYS) {
      const baseUrl = `${dataRepository}/${name}`;
      const survey = new SurveyLayer({ ...APPLICATION_SURVEY_OPTIONS, baseUrl, stencilBase });
      created.addLayer(survey);
      void survey.loaded.then(() => imageFields.add(survey.fields()));
    }
    // Then the whole-sky HiPS (viewer-spec §1's next layer), as a wide-field backdrop (hips.ts).
    const hips = new HipsLayer({ ...APPLICATION_HIPS_OPTIONS, baseUrl: `${dataRepository}/hips/sky` });
    created.addLayer(hips);
    // The chosen course's own HiPS (an imported course's imagery, issue 30), empty until one is
    // chosen (components/globe/useCourseImagery.ts); drawn over the backdrop, under the markers.
    const courseHips = new HipsLayer({ ...COURSE_HIPS_OPTIONS, baseUrl: '' }, 'survey');
    created.addLayer(courseHips);
    // The five pretty pictures, shown as the zoom reaches their objects (prettyPictures.ts).
    addPrettyPictures(created, dataRepository, imageFields);
    showLinkedLayers(created, openingHash);
    const keepLink = throttle(() => {
      if (followsView(location.hash))
        history.replaceState(
          history.state,
          '',
          hashWithView(location.hash, created.camera.state(), linkedLayers(created)),
        );
    }, 200);
    const unsubscribeCamera = created.onCameraChange(keepLink);
    const unsubscribeLayers = created.onLayersChange(keepLink);
    setGlobe(created);
    // A handle for the browser console and the end-to-end tests: the globe and the overlay
    // layers a caller may add to it.
    const handle = {
      globe: created,
      layers: { constellations, milkyWay, grid, stars, deepSky, hips, courseHips },
      PathLayer,
      SpriteLayer,
      TargetLayer,
      LevelOutlineLayer,
    };
    Object.assign(window, { galaxyCruiseGlobe: handle });
    return () => {
      if ((window as { galaxyCruiseGlobe?: unknown }).galaxyCruiseGlobe === handle)
        delete (window as { galaxyCruiseGlobe?: unknown }).galaxyCruiseGlobe;
      unsubscribeCamera();
      unsubscribeLayers();
      keepLink.cancel();
      setGlobe(null);
      baseLayers.current = null;
      created.release();
    };
  }, [retina, setGlobe, failed]);
  // After the globe's own effect, also on the first render: the layers start as the settings say.
  useEffect(() => baseLayers.current?.constellations.update({ language }), [language, retina]);
  useEffect(() => {
    const lines = skyLineOptions(settings.skyLines);
    baseLayers.current?.grid.update(lines.grid);
    baseLayers.current?.constellations.update(lines.constellations);
  }, [settings.skyLines, retina]);
  useEffect(
    () => baseLayers.current?.stars.update({ trueColors: settings.trueStarColors }),
    [settings.trueStarColors, retina],
  );
  return (
    <canvas
      ref={canvas}
      className="globe-canvas"
      data-testid="globe-canvas"
      tabIndex={0}
      aria-label={t('globe.label')}
    />
  );
}
