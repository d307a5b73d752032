// The projections in GLSL, shared by every layer's vertex shader, and the uniforms they read.
import { uniformLocation } from './gl';
import type { FrameContext } from './layers/layer';

/**
 * GLSL for the projections. `project` takes a world unit vector and returns a clip position
 * whose w does the perspective divide, so that GL clips lines at the horizon. All three modes
 * are a perspective view from an eye `u_eye` behind the sphere's centre (camera.ts,
 * eyeDistance): (x, y)·(1 + e)/(z + e), i.e. w = (z + e)/(1 + e); e = 0 is gnomonic (x/z),
 * e = 1 stereographic (2x/(1 + z)). Near the point opposite the eye (z → −e) w → 0 and a
 * triangle there would project to a screen-covering one, so for e > 0 vertices with
 * z < −0.95 e are sent beyond the far clip plane; at max_fovy they are far off screen. For
 * e = 0 GL's clipping at w = 0 removes the far hemisphere by itself.
 */
export const PROJECTION_GLSL = `
uniform mat3 u_view;
uniform vec2 u_scale;
uniform float u_eye;
vec4 project(vec3 world) {
  vec3 v = u_view * world;
  if (u_eye > 0.0 && v.z < -0.95 * u_eye) return vec4(0.0, 0.0, 2.0, 1.0);
  return vec4(v.x * u_scale.x, v.y * u_scale.y, 0.0, (v.z + u_eye) / (1.0 + u_eye));
}
`;

/** Sets the uniforms PROJECTION_GLSL reads; the program must be in use. */
export function setProjectionUniforms(gl: WebGL2RenderingContext, program: WebGLProgram, frame: FrameContext): void {
  gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_view'), false, frame.view);
  gl.uniform2fv(uniformLocation(gl, program, 'u_scale'), frame.scale);
  gl.uniform1f(uniformLocation(gl, program, 'u_eye'), frame.eye);
}
