// Level outlines (viewer-spec §3, §4, §9): per level its status (active, locked, unlocked) and
// outlines of [ra, dec] points in degrees, drawn closed, width 0.01, coloured by status (active
// orange, locked a darker orange, unlocked cyan), each outline with an optional label. Display only.
import { BlendMode, LineJoin, LineMesh, NARROW_LINE_MIN_WIDTH, appendLine } from '../lines';
import { skyVector } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { SpriteLayer, labelImage, type Sprite, type SpriteImage } from './sprites';

export type LevelStatus = 'active' | 'locked' | 'unlocked';

export const LEVEL_OUTLINE_COLORS: Record<LevelStatus, [number, number, number, number]> = {
  active: [1, 0.6, 0.1, 0.9],
  locked: [0.6, 0.3, 0.05, 0.9],
  unlocked: [0.2, 0.9, 1, 0.9],
};

export const LEVEL_OUTLINE_WIDTH = 0.01;

/**
 * A width so thin (radians) that the lines' own minimum of 3 px is what is drawn: an outline at
 * any field. The course overview and the voyage log's map draw it, where 0.01 (half a degree)
 * is wider than an area of the sky and filled a level into a block of colour.
 */
export const LEVEL_OUTLINE_THIN_WIDTH = 1e-6;

export interface LevelOutline {
  status: LevelStatus;
  outlines: [number, number][][];
  /** Labels at [ra, dec] (degrees). */
  labels?: { text: string; position: [number, number] }[];
}

export interface LevelOutlineOptions {
  levels: readonly LevelOutline[];
  width: number;
}

/** The closed outlines of every level in its status colour (lines.ts vertices). */
export function levelOutlineVertices(levels: readonly LevelOutline[]): Float32Array {
  const out: number[] = [];
  for (const level of levels)
    for (const outline of level.outlines) {
      const points = outline.map(([ra, dec]) => skyVector(ra, dec));
      // Closed (appendLine mitres the closing corner), unless the outline repeats its first point.
      const [first, last] = [outline[0], outline[outline.length - 1]];
      if (points.length > 2 && (first[0] !== last[0] || first[1] !== last[1])) points.push(points[0]);
      appendLine(out, points, LEVEL_OUTLINE_COLORS[level.status], LineJoin.MITER);
    }
  return new Float32Array(out);
}

export class LevelOutlineLayer implements Layer<LevelOutlineOptions> {
  readonly name = 'level-outlines';
  private context: LayerContext | null = null;
  private mesh: LineMesh | null = null;
  private readonly labels = new SpriteLayer();
  private options: LevelOutlineOptions;

  constructor(options: Partial<LevelOutlineOptions> = {}) {
    this.options = { levels: [], width: LEVEL_OUTLINE_WIDTH, ...options };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.mesh = new LineMesh(context.gl);
    this.labels.create(context);
    this.rebuild();
  }

  update(options: Partial<LevelOutlineOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.levels !== before.levels) this.rebuild();
    this.context?.requestFrame();
  }

  private rebuild(): void {
    this.mesh?.upload(levelOutlineVertices(this.options.levels));
    const images = new Map<string, SpriteImage>();
    const sprites: Sprite[] = [];
    for (const level of this.options.levels)
      for (const label of level.labels ?? []) {
        if (!images.has(label.text)) images.set(label.text, labelImage(label.text));
        const [x, y, z] = skyVector(...label.position);
        sprites.push({ imageID: label.text, position: [x, y, z], color: [1, 1, 1, 1] });
      }
    this.labels.update({ images, sprites });
  }

  draw(frame: FrameContext): void {
    this.mesh?.draw(frame, this.options.width, NARROW_LINE_MIN_WIDTH, BlendMode.NORMAL);
    this.labels.draw(frame);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.mesh) throw releasedMoreThanOnce();
    this.mesh.release();
    this.mesh = null;
    this.labels.release(gl);
    this.context = null;
  }
}
