// The lifecycle every layer shares (after deck.gl): create GL resources once, draw each frame,
// release once. Adding a layer means copying the shape of a neighbour.
import type { mat3 } from 'gl-matrix';
import type { Camera } from '../camera';

export interface FrameContext {
  gl: WebGL2RenderingContext;
  camera: Camera;
  view: mat3;
  /** Projection scale per axis: 1 / (half-size of the screen in the projection plane). */
  scale: [number, number];
  width: number;
  height: number;
  time: number;
}

export interface Layer {
  readonly name: string;
  create(gl: WebGL2RenderingContext): void;
  draw(frame: FrameContext): void;
  release(gl: WebGL2RenderingContext): void;
}
