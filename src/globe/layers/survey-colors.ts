// The survey tiles' colour parameters (viewer-spec §3) and their mixing on the GPU. Each filter
// is one 8-bit grey PNG in the asinh encoding of the HSC tiles: byte v gives y = v/255 and flux
// 1e-4·sinh(9.903487555·(y − 1/9)). The filters are mixed into colour by the parameters:
//   matrix types: x = Σ_k colour_k · flux_k over the enabled colours (up to three filters);
//   the other types: red, green, blue = HSC-I, HSC-R, HSC-G fluxes;
//   then x − b0 is stretched with s(x) = asinh(β·x)/asinh(β) and scaled by a, either per
//   channel (SIMPLE_*) or, keeping the colour of each pixel, by the stretch of the mean
//   intensity I (SDSS_TRUE_COLOR*: Lupton et al. 2004), and bias is added.
import { uniformLocation } from '../gl';

export enum ColorParamsType {
  SDSS_TRUE_COLOR = 'SDSS_TRUE_COLOR',
  SIMPLE_RGB = 'SIMPLE_RGB',
  SIMPLE_COLOR_MATRIX = 'SIMPLE_COLOR_MATRIX',
  SDSS_TRUE_COLOR_MATRIX = 'SDSS_TRUE_COLOR_MATRIX',
}

export interface ColorEntry {
  filterName: string;
  enabled: boolean;
  /** Weights of this filter's flux in red, green and blue. */
  value: [number, number, number];
}

export interface ColorParams {
  type: ColorParamsType;
  beta: number;
  a: number;
  bias: number;
  b0: number;
  /** The matrix types' colours; ignored by the others. */
  colors: ColorEntry[];
}

/** Red, green and blue of the non-matrix types (viewer-spec §3: filters HSC-I, HSC-R, HSC-G). */
export const DEFAULT_FILTERS = ['HSC-I', 'HSC-R', 'HSC-G'] as const;

/** viewer-spec §3: beta e^10, a 1, bias 0.05, b0 0. */
export const DEFAULT_COLOR_PARAMS: ColorParams = {
  type: ColorParamsType.SDSS_TRUE_COLOR,
  beta: Math.exp(10),
  a: 1,
  bias: 0.05,
  b0: 0,
  colors: [
    { filterName: 'HSC-I', enabled: true, value: [1, 0, 0] },
    { filterName: 'HSC-R', enabled: true, value: [0, 1, 0] },
    { filterName: 'HSC-G', enabled: true, value: [0, 0, 1] },
  ],
};

/** The filters a colour parameter set reads and the 3×3 weights (column k: filter k's RGB). */
export function colorMixing(params: ColorParams): { filters: string[]; weights: Float32Array } {
  const matrix =
    params.type === ColorParamsType.SIMPLE_COLOR_MATRIX || params.type === ColorParamsType.SDSS_TRUE_COLOR_MATRIX;
  const entries = matrix
    ? params.colors.filter((entry) => entry.enabled)
    : DEFAULT_FILTERS.map((filterName, k) => ({
        filterName,
        value: [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0] as [number, number, number],
      }));
  if (entries.length > 3) throw new Error('a survey colour matrix mixes at most 3 filters');
  const weights = new Float32Array(9);
  entries.forEach((entry, k) => weights.set(entry.value, 3 * k));
  return { filters: entries.map((entry) => entry.filterName), weights };
}

function isTrueColor(type: ColorParamsType): boolean {
  return type === ColorParamsType.SDSS_TRUE_COLOR || type === ColorParamsType.SDSS_TRUE_COLOR_MATRIX;
}

/**
 * The mixing in GLSL: `surveyColor(vec3 bytes)` takes the three filters' texels (y = v/255) and
 * reads the uniforms that setSurveyColorUniforms sets.
 */
export const SURVEY_COLOR_GLSL = `
uniform mat3 u_colors;
uniform bool u_trueColor;
uniform float u_beta;
uniform float u_a;
uniform float u_bias;
uniform float u_b0;
float flux(float y) { return 1e-4 * sinh(9.903487555 * (y - 1.0 / 9.0)); }
float stretch(float x) { return asinh(u_beta * x) / asinh(u_beta); }
vec3 surveyColor(vec3 y) {
  vec3 f = vec3(flux(y.r), flux(y.g), flux(y.b));
  vec3 x = u_colors * f - u_b0;
  vec3 rgb;
  if (u_trueColor) {
    float intensity = (x.r + x.g + x.b) / 3.0;
    rgb = intensity > 0.0 ? x * (u_a * stretch(intensity) / intensity) : vec3(0.0);
  } else {
    rgb = u_a * vec3(stretch(x.r), stretch(x.g), stretch(x.b));
  }
  return clamp(rgb + u_bias, 0.0, 1.0);
}
`;

/** Sets SURVEY_COLOR_GLSL's uniforms (the program in use) from `params` and their mixing. */
export function setSurveyColorUniforms(
  gl: WebGL2RenderingContext,
  program: WebGLProgram,
  params: ColorParams,
  mixing: ReturnType<typeof colorMixing>,
): void {
  gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_colors'), false, mixing.weights);
  gl.uniform1i(uniformLocation(gl, program, 'u_trueColor'), isTrueColor(params.type) ? 1 : 0);
  gl.uniform1f(uniformLocation(gl, program, 'u_beta'), params.beta);
  gl.uniform1f(uniformLocation(gl, program, 'u_a'), params.a);
  gl.uniform1f(uniformLocation(gl, program, 'u_bias'), params.bias);
  gl.uniform1f(uniformLocation(gl, program, 'u_b0'), params.b0);
}
