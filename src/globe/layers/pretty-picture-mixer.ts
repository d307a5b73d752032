// The pretty-picture mixing on the GPU: the steps of shared/prettyMixing.ts (which holds the
// reference in JavaScript, shared with the import's HiPS writer) as GLSL.
export * from '../../../shared/prettyMixing';

/**
 * The same steps in GLSL: `prettyColor(vec4 fluxes)` reads the uniforms below; u_mix holds
 * mixMatrix's columns (a mat4x3: four filters, three channels).
 */
export const PRETTY_MIXER_GLSL = `
#define PRETTY_PI 3.14159265358979
uniform float u_a;
uniform float u_b;
uniform float u_beta;
uniform float u_bias;
uniform mat4x3 u_mix;
uniform float u_exposure;
uniform float u_gamma;
uniform float u_ground;
uniform bool u_grayscale;
vec3 prettyColor(vec4 fluxes) {
  vec4 s = clamp(asinh(u_beta * u_a * (fluxes + u_b)) / asinh(u_beta) + u_bias, 0.0, 1.0);
  s = (1.0 - cos(PRETTY_PI * s)) / 2.0;
  vec3 rgb = u_mix * s;
  rgb = clamp(pow(u_exposure * max(vec3(0.0), rgb + u_ground), vec3(u_gamma)), 0.0, 1.0);
  if (u_grayscale) rgb = vec3((rgb.r + rgb.g + rgb.b) / 3.0);
  return rgb;
}
`;
