// The application's settings of the viewer's layers (viewer-spec §3, application-spec): what the
// Galaxy Cruise screens give the survey and HiPS layers, kept out of the viewer library, whose
// own defaults are the viewer's (SURVEY_DEFAULTS, HIPS_DEFAULTS). The layers' modules are imported
// for their types only, so that the settings store, which reads the colours, does not load them.
import type { HipsOptions } from '../../../globe/layers/hips';
import type { SurveyOptions } from '../../../globe/layers/survey';
import { ColorParamsType, DEFAULT_COLOR_PARAMS, type ColorParams } from '../../../globe/layers/survey-colors';

/** The application's tile layer (viewer-spec §3, application-spec): true-colour matrix, beta 57338.67. */
export const APPLICATION_COLOR_PARAMS: ColorParams = {
  ...DEFAULT_COLOR_PARAMS,
  type: ColorParamsType.SDSS_TRUE_COLOR_MATRIX,
  beta: 57338.67,
  colors: [
    { filterName: 'HSC-I', enabled: true, value: [0.95, 0, 0] },
    { filterName: 'HSC-R', enabled: true, value: [0, 0.98, 0] },
    { filterName: 'HSC-G', enabled: true, value: [0, 0, 1.02] },
  ],
};

/**
 * The application's settings: level-of-detail bias 2 (viewer-spec §3), the tiles' light added to
 * the sky under them (survey.ts), so that a field's sky is the sky around it, and the area
 * outlines on. viewer-spec §3 configures the reference application's layer with its outline
 * off, drawing its tiles as opaque squares at every zoom; with the tiles fading out by zoom,
 * the outline is what shows where a field is once its tiles are a few pixels across (viewer-spec
 * §4: tiles cross-fade with the area outline by zoom level).
 */
export const APPLICATION_SURVEY_OPTIONS: Omit<SurveyOptions, 'baseUrl'> = {
  colorParams: APPLICATION_COLOR_PARAMS,
  tileLodBias: 2,
  outline: true,
  revision: 0,
  blend: 'add',
  stencilBase: 0,
};

/**
 * The application's survey folders, in drawing order, each with its stencil base (multiples of
 * survey.ts's STENCIL_SPAN, 85): a Deep/UltraDeep area lies inside a Wide field
 * (docs/sky-data.md), so where their tracts overlap the Deep/UltraDeep folder's win (survey.ts:
 * drawn first, with the higher base).
 */
export const APPLICATION_SURVEYS = [
  { name: 'simulation', stencilBase: 170 },
  { name: 'dud', stencilBase: 85 },
  { name: 'wide', stencilBase: 0 },
] as const;

/**
 * The application's HiPS: a wide-field backdrop. viewer-spec §1 lists the layer after the survey
 * tiles and sets it no zoom range, but drawn later it lies over them and over the star points,
 * and the whole-sky HiPS is far coarser than the surveys (arc-minute texels against the surveys'
 * sub-arc-second pixels): zoomed in past its resolution it would only add blurred blocks of
 * light over the image a volunteer classifies and haloes around the stars. So it shows while its
 * finest texels are no larger than a screen pixel, fades out by two, and leaves the narrower
 * fields to the surveys and the star layer.
 */
export const APPLICATION_HIPS_OPTIONS: Omit<HipsOptions, 'baseUrl'> = {
  maxTexelPixels: 1,
  tileLodBias: 2,
  colour: null,
};

/**
 * A course's HiPS (the layer's 'survey' role): the image a volunteer classifies, sharp at the
 * answer form's field of view however fine that is, so drawn at every zoom.
 */
export const COURSE_HIPS_OPTIONS: Omit<HipsOptions, 'baseUrl'> = {
  maxTexelPixels: Infinity,
  tileLodBias: 2,
  colour: null,
};
