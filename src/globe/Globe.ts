// The globe: owns the canvas's WebGL2 context, the camera and the layers, and draws a frame
// only when something changed or is still animating (a mode blend, a layer's fade), so an idle
// globe costs a low-end laptop nothing; where moving frames come slowly, they are drawn at a lower
// resolution (resolution.ts).
import { mat3 } from 'gl-matrix';
import {
  Camera,
  Jump,
  MODE_BLEND_MS,
  easeFovyBack,
  eyeDistance,
  lodBiasAt,
  type CameraState,
  type JumpOptions,
  type JumpTarget,
  type ProjectionMode,
} from './camera';
import { frameBackdrops } from './backdrops';
import { attachGestures } from './gestures';
import { AdaptiveResolution, FILL_FRAME_MS } from './resolution';
import type { FrameContext, Layer, LayerContext } from './layers/layer';
import { decoderPool } from '../workers/browser-pool';
import type { DecoderPool } from '../workers/pool';

export interface GlobeOptions {
  /** Render at devicePixelRatio (viewer-spec §9: off in the renderer, on in the container). */
  retina?: boolean;
  /** Clear colour, RGBA 0..1. */
  background?: [number, number, number, number];
  /** The decoder pool handed to the layers (LayerContext.decoder); by default the page's. */
  decoder?: DecoderPool;
}

/**
 * The page's decoder pool (src/workers/browser-pool.ts), started by the first job rather than by
 * the globe: a globe whose layers decode nothing starts no workers.
 */
const pageDecoder: DecoderPool = { run: (method, args, options) => decoderPool().run(method, args, options) };

type CameraListener = (state: CameraState) => void;
/** A camera animation run once per frame until it returns false (a jump, wheel inertia, a swipe). */
export type CameraAnimation = (time: number) => boolean;

/** Whether the user asked for less motion: jumps become cuts. */
function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export class Globe {
  readonly camera = new Camera();
  readonly gl: WebGL2RenderingContext;
  private readonly layers: Layer[] = [];
  /** Names of layers not drawn (all layers of a name together, as the three surveys'). */
  private readonly hidden = new Set<string>();
  private readonly layerListeners = new Set<() => void>();
  private readonly listeners = new Set<CameraListener>();
  private readonly detachGestures: () => void;
  private readonly resizeObserver: ResizeObserver;
  private readonly view = mat3.create();
  private frameRequest = 0;
  /** A frame the layers asked for, held back until FILL_FRAME_MS after the last (fillPaced). */
  private pacedFrame: ReturnType<typeof setTimeout> | undefined;
  /** Whether the last frame was a slow machine's at rest with the view filling (FILL_FRAME_MS). */
  private fillPaced = false;
  /** performance.now() when the last frame was drawn. */
  private drawnAt = -Infinity;
  private released = false;
  /** Frames drawn so far (an idle globe draws none; the tests and the bench read it). */
  frames = 0;
  /** The mode last drawn and the blend from the eye distance drawn before a mode change. */
  private drawnMode: ProjectionMode;
  private drawnEye: number;
  private modeBlend: { from: number; start: number } | null = null;
  private readonly layerContext: LayerContext;
  private readonly animations = new Set<CameraAnimation>();
  /** performance.now() of the last camera motion (the level-of-detail bias fades after it). */
  private lastMotion = -Infinity;
  /** When and at what value fovy was found outside its range, to ease it back. */
  private fovyOut: { since: number; fovy: number } | null = null;
  /** The jump under way, if any: its end is handed to the layers (FrameContext.destination). */
  private jump: Jump | null = null;
  /**
   * Where the last jump ended, while the level-of-detail bias fades after it: still the
   * destination, so that the layers load the view's sharp tiles at once rather than a level
   * coarser first (a cut, which ends in its first frame, is a jump too).
   */
  private landed: JumpTarget | null = null;
  /** Moving frames at a lower resolution where they come slowly (resolution.ts). */
  private readonly adaptiveResolution = new AdaptiveResolution();
  /** The views expected next (prefetch). */
  private ahead: readonly JumpTarget[] = [];
  /**
   * Whether the frames hand `ahead` to the layers (FrameContext.ahead): from a frame at rest until
   * the camera moves or the views change. Their loads then neither lower the resolution nor keep
   * the view from resting, and before it they take nothing from the view's own tiles.
   */
  private aheadHanded = false;
  /**
   * requestAnimationFrame's time of the first frame of the present rest: a frame drawn with no
   * shown layer loading the view's tiles and nothing asking for another (no motion, no
   * level-of-detail bias, no fade), so the view is as sharp as it gets; null after a frame that
   * was not at rest. The cruise bench reads it (the next target sharp).
   */
  restingSince: number | null = null;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly options: GlobeOptions = {},
  ) {
    let gl: WebGL2RenderingContext | null = null;
    let cause: unknown = 'WebGL2 is not available';
    try {
      // No multisampling: lines smooth their own edges (lines.ts), points and tiles need none.
      gl = canvas.getContext('webgl2', { antialias: false, premultipliedAlpha: false, stencil: true });
    } catch (error) {
      cause = error;
    }
    if (!gl) {
      // viewer-spec §8: alert, then throw.
      const message = `Fails on initializing WebGL.\n${cause instanceof Error ? cause.message : String(cause)}`;
      if (typeof alert === 'function') alert(message);
      throw new Error(message);
    }
    this.gl = gl;
    this.drawnMode = this.camera.mode;
    this.drawnEye = eyeDistance(this.camera.mode, this.camera.fovy);
    this.layerContext = {
      gl,
      requestFrame: () => this.requestLayerFrame(),
      decoder: options.decoder ?? pageDecoder,
    };
    this.detachGestures = attachGestures(canvas, {
      camera: this.camera,
      changed: () => this.cameraChanged(),
      eye: () => this.drawnEye,
      jumpTo: (target, options) => this.jumpTo(target, options),
      animate: (animation) => this.animate(animation),
      stop: () => this.stopAnimations(),
    });
    this.resizeObserver = new ResizeObserver(() => this.viewChanged());
    this.resizeObserver.observe(canvas);
    this.requestFrame();
  }

  addLayer(layer: Layer): void {
    layer.create(this.layerContext);
    this.layers.push(layer);
    this.viewChanged();
  }

  removeLayer(layer: Layer): void {
    const index = this.layers.indexOf(layer);
    if (index < 0) return;
    this.layers.splice(index, 1);
    layer.release(this.gl);
    this.requestFrame();
  }

  /** The layers named `name` (the three surveys are all 'survey'), in drawing order. */
  layersNamed(name: string): Layer[] {
    return this.layers.filter((layer) => layer.name === name);
  }

  /**
   * Renders at devicePixelRatio (true) or at CSS pixels from the next frame on: the settings'
   * retina option, without making the globe and its layers again.
   */
  setRetina(retina: boolean): void {
    if ((this.options.retina ?? false) === retina) return;
    this.options.retina = retina;
    this.viewChanged();
  }

  /** The names of the globe's layers, each once, in drawing order. */
  layerNames(): string[] {
    return [...new Set(this.layers.map((layer) => layer.name))];
  }

  /** The names of the layers drawn, each once, in drawing order. */
  visibleLayers(): string[] {
    return this.layerNames().filter((name) => !this.hidden.has(name));
  }

  /** Shows or hides every layer named `name`; a hidden layer keeps its data but is not drawn. */
  setLayerVisible(name: string, visible: boolean): void {
    if (visible === !this.hidden.has(name)) return;
    if (visible) this.hidden.delete(name);
    else this.hidden.add(name);
    for (const listener of this.layerListeners) listener();
    this.viewChanged();
  }

  /** Subscribes to changes of the layers' visibility; returns the unsubscribe function. */
  onLayersChange(listener: () => void): () => void {
    this.layerListeners.add(listener);
    return () => this.layerListeners.delete(listener);
  }

  /** Subscribes to camera changes; returns the unsubscribe function. */
  onCameraChange(listener: CameraListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setCamera(state: Partial<CameraState>): void {
    Object.assign(this.camera, state);
    this.cameraChanged();
  }

  /**
   * Moves the camera to `target` over JUMP_MS (viewer-spec §4), dipping the zoom on long jumps
   * unless keepFovy; a user who prefers reduced motion gets a cut. Other animations stop.
   */
  jumpTo(target: JumpTarget, options: JumpOptions = {}): Jump {
    const duration = prefersReducedMotion() ? 0 : options.duration;
    const jump = new Jump(this.camera, target, performance.now(), { ...options, duration });
    this.animations.clear();
    this.jump = jump;
    this.animate((time) => {
      const moving = this.jump === jump && jump.apply(this.camera, Math.max(time, jump.startTime));
      if (!moving && this.jump === jump) {
        this.jump = null;
        this.landed = jump.target;
      }
      return moving;
    });
    return jump;
  }

  /**
   * Whether a jump is under way: from jumpTo until the frame that puts the camera at its end (the
   * camera's listeners hear that frame with this already false), or until a gesture takes the
   * camera. The main screen's answer form waits for it (it answers the galaxy on screen).
   */
  get jumping(): boolean {
    return this.jump !== null;
  }

  /**
   * The views the camera is expected to go to next, likeliest first (the next target while the
   * volunteer answers this one), each given as jumpTo's target: once the view on screen is at rest
   * (its tiles in and faded), the tiled layers load their tiles (FrameContext.ahead), so that a
   * jump there finds them in. Replaces the views given before; none clears them.
   */
  prefetch(views: readonly JumpTarget[]): void {
    const same =
      views.length === this.ahead.length &&
      views.every((view, index) => {
        const before = this.ahead[index];
        return (
          view.theta === before.theta &&
          view.phi === before.phi &&
          view.fovy === before.fovy &&
          view.roll === before.roll
        );
      });
    if (same) return;
    this.ahead = views.map((view) => ({ ...view }));
    this.aheadHanded = false;
    // An idle globe draws nothing: a frame finds the view at rest and hands the views to the
    // layers, which start the loads (each arrival asks for the frame that starts the next ones).
    this.requestFrame();
  }

  /** Stops the camera's animations (a gesture took the camera), the jump under way with them. */
  private stopAnimations(): void {
    this.animations.clear();
    this.jump = null;
    this.landed = null;
  }

  /** Runs `animation` once per frame until it returns false. */
  animate(animation: CameraAnimation): void {
    this.animations.add(animation);
    this.lastMotion = performance.now();
    this.requestFrame();
  }

  /** Steps the camera's animations, the fovy ease-back and the level-of-detail bias for a frame. */
  private stepCamera(time: number): void {
    const { camera } = this;
    let moved = false;
    for (const animation of [...this.animations]) {
      if (!animation(time)) this.animations.delete(animation);
      moved = true;
    }
    if (camera.fovy < camera.min_fovy || camera.fovy > camera.max_fovy) {
      if (this.animations.size === 0) {
        this.fovyOut ??= { since: time, fovy: camera.fovy };
        const elapsed = time - this.fovyOut.since;
        camera.fovy = easeFovyBack(this.fovyOut.fovy, camera.min_fovy, camera.max_fovy, elapsed);
        moved = true;
      }
    } else this.fovyOut = null;
    if (moved) {
      this.lastMotion = time;
      this.aheadHanded = false;
      camera.normalize(true);
      const state = camera.state();
      for (const listener of this.listeners) listener(state);
    }
    camera.lodBias = lodBiasAt(time, this.lastMotion);
    if (moved || camera.lodBias > 0) this.requestFrame();
  }

  private cameraChanged(): void {
    this.camera.normalize(true);
    this.lastMotion = performance.now();
    this.aheadHanded = false;
    this.landed = null;
    this.fovyOut = null;
    const state = this.camera.state();
    for (const listener of this.listeners) listener(state);
    this.requestFrame();
  }

  /**
   * What the view shows changed without the camera moving (a layer added or shown, the canvas's
   * size or resolution): its own tiles load before the views ahead are handed again.
   */
  private viewChanged(): void {
    this.aheadHanded = false;
    this.requestFrame();
  }

  /**
   * A frame for a layer (data arrived, a fade under way): on a slow machine whose view at rest is
   * filling, not sooner than FILL_FRAME_MS after the last frame; otherwise at once. The camera's
   * own frames (a gesture, a jump, a change from the page) are never held back.
   */
  private requestLayerFrame(): void {
    if (this.frameRequest || this.pacedFrame !== undefined || this.released) return;
    const wait = this.fillPaced ? this.drawnAt + FILL_FRAME_MS - performance.now() : 0;
    if (wait <= 0) return this.requestFrame();
    this.pacedFrame = setTimeout(() => {
      this.pacedFrame = undefined;
      this.requestFrame();
    }, wait);
  }

  requestFrame(): void {
    if (this.pacedFrame !== undefined) {
      clearTimeout(this.pacedFrame);
      this.pacedFrame = undefined;
    }
    if (this.frameRequest || this.released) return;
    this.frameRequest = requestAnimationFrame((time) => {
      this.frameRequest = 0;
      this.draw(time);
    });
  }

  /** Sizes the drawing buffer for `resolution`; returns the frame's size at rest (FrameContext). */
  private resize(resolution: number): { width: number; height: number } {
    const ratio = this.options.retina ? window.devicePixelRatio || 1 : 1;
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    const bufferWidth = Math.max(1, Math.round(width * resolution));
    const bufferHeight = Math.max(1, Math.round(height * resolution));
    if (this.canvas.width !== bufferWidth || this.canvas.height !== bufferHeight) {
      this.canvas.width = bufferWidth;
      this.canvas.height = bufferHeight;
    }
    return { width, height };
  }

  private draw(time: number): void {
    const { gl } = this;
    this.stepCamera(time);
    // Tiles loading, the view's own or (once handed) the views ahead's.
    const loading = this.layers.some((layer) => !this.hidden.has(layer.name) && layer.loading?.() === true);
    const filling = !this.aheadHanded && loading;
    const resolution = this.adaptiveResolution.resolution(time, this.camera.lodBias > 0, filling);
    this.drawnAt = performance.now();
    this.fillPaced = loading && this.adaptiveResolution.slow && this.animations.size === 0 && this.camera.lodBias === 0;
    const { width, height } = this.resize(resolution);
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    const [r, g, b, a] = this.options.background ?? [0.01, 0.02, 0.06, 1];
    gl.clearColor(r, g, b, a);
    // The stencil holds the survey tracts' ranks for this frame (layers/survey.ts).
    gl.clearStencil(0);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
    const eye = this.eyeAt(time);
    const halfHeight = this.camera.projectionScale(eye);
    const frame: FrameContext = {
      gl,
      camera: this.camera,
      view: this.camera.viewMatrix(this.view),
      scale: [height / (width * halfHeight), 1 / halfHeight],
      eye,
      width,
      height,
      resolution,
      time,
      requestFrame: () => this.requestLayerFrame(),
      destination: this.jump
        ? this.viewAfter(this.jump.target)
        : this.landed && this.camera.lodBias > 0
          ? this.viewAfter(this.landed)
          : undefined,
      ahead: this.aheadHanded ? this.ahead.map((view) => this.viewAfter(view)) : undefined,
    };
    this.frames++;
    const shown = this.layers.filter((layer) => !this.hidden.has(layer.name));
    frame.backdrops = frameBackdrops(shown, frame);
    for (const layer of shown) layer.draw(frame);
    // A frame requested while drawing (a fade, the camera's motion or bias) means more to come;
    // once the views ahead are handed, what the layers load is theirs.
    const resting =
      this.frameRequest === 0 &&
      this.pacedFrame === undefined &&
      (this.aheadHanded || !shown.some((layer) => layer.loading?.() === true));
    this.restingSince = resting ? (this.restingSince ?? time) : null;
    if (resting && !this.aheadHanded && this.ahead.length > 0) {
      this.aheadHanded = true;
      this.requestFrame();
    }
  }

  /** The view at the end of a jump to `target`, in the current projection mode. */
  private viewAfter(target: JumpTarget): { camera: Camera; eye: number } {
    const camera = Object.assign(new Camera(), this.camera.state());
    for (const key of ['theta', 'phi', 'fovy', 'roll'] as const)
      if (target[key] !== undefined) camera[key] = target[key];
    return { camera, eye: eyeDistance(camera.mode, camera.fovy) };
  }

  /**
   * The projection's eye distance for this frame: the mode's own, or on the way to it for
   * MODE_BLEND_MS after the mode changed (viewer-spec §4), asking for frames until it is there.
   */
  private eyeAt(time: number): number {
    const { camera } = this;
    // The first frame shows the mode it was opened with (a deep link) without a blend.
    if (this.frames === 0) this.drawnMode = camera.mode;
    if (camera.mode !== this.drawnMode) {
      this.modeBlend = { from: this.drawnEye, start: time };
      this.drawnMode = camera.mode;
    }
    const target = eyeDistance(camera.mode, camera.fovy);
    let eye = target;
    if (this.modeBlend) {
      const t = (time - this.modeBlend.start) / MODE_BLEND_MS;
      if (t >= 1) this.modeBlend = null;
      else {
        const eased = t <= 0 ? 0 : t * t * (3 - 2 * t);
        eye = this.modeBlend.from + (target - this.modeBlend.from) * eased;
        this.requestFrame();
      }
    }
    this.drawnEye = eye;
    return eye;
  }

  /** The eye distance of the frame last drawn (projection.ts). */
  get eye(): number {
    return this.drawnEye;
  }

  release(): void {
    if (this.released) throw new Error('Released more than once');
    this.released = true;
    cancelAnimationFrame(this.frameRequest);
    clearTimeout(this.pacedFrame);
    this.detachGestures();
    this.resizeObserver.disconnect();
    for (const layer of this.layers.splice(0)) layer.release(this.gl);
    this.listeners.clear();
  }
}
