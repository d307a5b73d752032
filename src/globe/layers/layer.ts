// The lifecycle every layer shares (after deck.gl): create GL resources once, update when the
// layer's data or options change, draw each frame, release once. Adding a layer means copying
// the shape of a neighbour:
//
//   create(context)   compile programs, make buffers, start loading data (once), decoding
//                     its files in the context's decoder pool;
//   update(options)   options or data changed: rebuild only what depends on them, then ask
//                     for a frame through the context;
//   draw(frame)       draw; a layer that is still animating (a fade) asks for the next frame
//                     through the context, so that an idle globe draws nothing;
//   release(gl)       delete what create made; a second release throws 'Released more than once'.
import type { mat3 } from 'gl-matrix';
import type { DecoderPool } from '../../workers/pool';
import type { Camera } from '../camera';

/** What a layer gets when it is added to a globe. */
export interface LayerContext {
  gl: WebGL2RenderingContext;
  /** Asks the globe for one more frame (data arrived, an animation is under way). */
  requestFrame(): void;
  /** The decoder pool (src/workers/pool.ts) the layer decodes its files in, off the main thread. */
  decoder: DecoderPool;
}

export interface FrameContext {
  gl: WebGL2RenderingContext;
  camera: Camera;
  view: mat3;
  /** Projection scale per axis: 1 / (half-size of the screen in the projection plane). */
  scale: [number, number];
  /** The projection's eye distance behind the sphere's centre (projection.ts). */
  eye: number;
  /**
   * The frame's size in pixels at rest (the canvas's CSS size, times devicePixelRatio with the
   * retina option): what the layers choose tiles and levels by, whatever the resolution.
   */
  width: number;
  height: number;
  /**
   * The drawing buffer's pixels per pixel at rest: 1, or less for a slow machine's passing frames
   * (resolution.ts). What is drawn in the buffer's own pixels (a point's size, a line's smoothed
   * edge) is multiplied by it.
   */
  resolution: number;
  /** requestAnimationFrame's timestamp, ms. */
  time: number;
  /** Asks for the next frame (a layer still fading in calls it while it draws). */
  requestFrame(): void;
  /** Where a jump under way ends, and that view's eye distance: tiled layers load it first. */
  destination?: { camera: Camera; eye: number };
  /**
   * Views expected next (the next target while the volunteer answers this one): tiled layers
   * load their tiles after the view's own and the destination's, so that they are in before
   * the jump there starts.
   */
  ahead?: readonly { camera: Camera; eye: number }[];
  /** The share of the sky's light of each backdrop layer in this frame (backdrops.ts). */
  backdrops?: ReadonlyMap<Layer, number>;
}

export interface Layer<Options = object> {
  readonly name: string;
  create(context: LayerContext): void;
  /** The layer's options (or data) changed; only the given fields are replaced. */
  update(options: Partial<Options>): void;
  draw(frame: FrameContext): void;
  release(gl: WebGL2RenderingContext): void;
  /** A whole-sky backdrop (the HiPS, the Milky Way cube) draws at the share the globe gives it. */
  readonly backdrop?: Backdrop;
  /**
   * Whether what the last frame wanted is still loading (tiled layers): the frames of a view
   * still filling in may be drawn at a lower resolution (resolution.ts).
   */
  loading?(): boolean;
}

/** Thrown by release() the second time, as viewer-spec §8 says. */
export function releasedMoreThanOnce(): Error {
  return new Error('Released more than once');
}

/**
 * What a backdrop layer tells the globe before each frame, for the share of the sky's light it
 * draws (../backdrops.ts).
 */
export interface Backdrop {
  /** Its finest texel, radians; null until it knows (nothing loaded yet). */
  texelAngle(): number | null;
  /** The opacity, 0..1, it would draw at in this frame if it were the only backdrop. */
  coverage(frame: FrameContext): number;
}
