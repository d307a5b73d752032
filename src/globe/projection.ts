// The projections in GLSL, shared by every layer's vertex shader, and the uniforms they read.
import { ProjectionMode } from './camera';
import { uniformLocation } from './gl';
import type { FrameContext } from './layers/layer';

/**
 * GLSL for the projections. `project` takes a view-space unit vector (z = forward) and returns
 * a clip position whose w does the perspective divide, so that GL clips lines at the horizon.
 * Stereographic: (x, y)·2/(1 + z) = (x, y)/w with w = (1 + z)/2. Gnomonic: (x, y)/z.
 * Near the stereographic antipode (z → −1) w → 0 and a triangle there would project to a
 * screen-covering one, so vertices within ~18° of it are sent beyond the far clip plane; at
 * max_fovy they are still far off screen (2·tan(81°) ≫ 2·tan(0.5)).
 */
export const PROJECTION_GLSL = `
uniform mat3 u_view;
uniform vec2 u_scale;
uniform int u_mode;
vec4 project(vec3 world) {
  vec3 v = u_view * world;
  if (u_mode == 0) return vec4(v.x * u_scale.x, v.y * u_scale.y, 0.0, v.z);
  if (v.z < -0.95) return vec4(0.0, 0.0, 2.0, 1.0);
  return vec4(v.x * u_scale.x, v.y * u_scale.y, 0.0, 0.5 * (1.0 + v.z));
}
`;

/** Sets the uniforms PROJECTION_GLSL reads; the program must be in use. */
export function setProjectionUniforms(gl: WebGL2RenderingContext, program: WebGLProgram, frame: FrameContext): void {
  gl.uniformMatrix3fv(uniformLocation(gl, program, 'u_view'), false, frame.view);
  gl.uniform2fv(uniformLocation(gl, program, 'u_scale'), frame.scale);
  gl.uniform1i(uniformLocation(gl, program, 'u_mode'), frame.camera.mode === ProjectionMode.GNOMONIC ? 0 : 1);
}
