// Target markers for the cruise: a ring at each target galaxy, by state (unanswered, answered,
// current), drawn as sprites so that they keep their pixel size at every zoom. The cruise hides
// them (`shown`) and keeps them off a zoomed-in galaxy (`minFovy`: none drawn below that field of
// view).
import { skyVector } from '../visibility';
import type { FrameContext, Layer, LayerContext } from './layer';
import { SpriteLayer, type Sprite, type SpriteImage } from './sprites';

export type TargetState = 'unanswered' | 'answered' | 'current';

export interface TargetMarker {
  /** Degrees. */
  ra: number;
  dec: number;
  state: TargetState;
}

export interface TargetOptions {
  targets: readonly TargetMarker[];
  shown: boolean;
  /** Radians: below this field of view no marker is drawn. */
  minFovy: number;
}

/** Ring radius (px), stroke (px) and colour of each state's marker. */
export const TARGET_STYLES: Record<TargetState, { radius: number; stroke: number; color: string }> = {
  unanswered: { radius: 12, stroke: 2, color: '#7fd4ff' },
  answered: { radius: 9, stroke: 2, color: '#8a94a6' },
  current: { radius: 18, stroke: 3, color: '#ffb347' },
};

function ringImage(state: TargetState): SpriteImage {
  const { radius, stroke, color } = TARGET_STYLES[state];
  const size = 2 * (radius + stroke);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d')!;
  context.strokeStyle = color;
  context.lineWidth = stroke;
  context.beginPath();
  context.arc(size / 2, size / 2, radius, 0, 2 * Math.PI);
  context.stroke();
  return { image: canvas, origin: [size / 2, size / 2] };
}

export class TargetLayer implements Layer<TargetOptions> {
  readonly name = 'targets';
  private readonly sprites = new SpriteLayer();
  private options: TargetOptions;

  constructor(options: Partial<TargetOptions> = {}) {
    this.options = { targets: [], shown: true, minFovy: 0, ...options };
  }

  create(context: LayerContext): void {
    this.sprites.create(context);
    const images = new Map<string, SpriteImage>(
      (['unanswered', 'answered', 'current'] as const).map((state) => [state, ringImage(state)]),
    );
    this.sprites.update({ images, sprites: this.spriteList() });
  }

  update(options: Partial<TargetOptions>): void {
    this.options = { ...this.options, ...options };
    this.sprites.update({ sprites: this.spriteList() });
  }

  private spriteList(): Sprite[] {
    return this.options.targets.map((target) => {
      const [x, y, z] = skyVector(target.ra, target.dec);
      return { imageID: target.state, position: [x, y, z], color: [1, 1, 1, 1] };
    });
  }

  draw(frame: FrameContext): void {
    if (!this.options.shown || frame.camera.fovy < this.options.minFovy) return;
    this.sprites.draw(frame);
  }

  release(gl: WebGL2RenderingContext): void {
    this.sprites.release(gl);
  }
}
