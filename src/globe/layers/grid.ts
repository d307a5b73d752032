// The coordinate grid (viewer-spec §9): circles of constant theta at 18 divisions and
// meridians at 24 divisions of phi (one per hour of right ascension), line width 0.008. The
// width is in the unit of the constellation lines' size (clip space, the screen 2 high: 0.008 is
// 0.4 % of the screen's height, under the 3 px minimum on most screens), so the grid stays a
// hairline at every zoom instead of a band that fills the screen when zoomed in. Over a wide
// field it gives way to the sky (lines.ts wideFieldAlpha); with `narrowFade` it fades out as the
// field narrows, so that it does not cross the galaxy a volunteer is looking at.
import {
  BlendMode,
  LineJoin,
  LineMesh,
  NARROW_LINE_MIN_WIDTH,
  appendLine,
  narrowFieldAlpha,
  wideFieldAlpha,
  wideFieldWidth,
} from '../lines';
import { unitVector } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';

export interface GridOptions {
  thetaDivisions: number;
  phiDivisions: number;
  lineWidth: number;
  color: [number, number, number, number];
  /** Fully drawn at fovy ≥ narrowFade[1] radians, gone at ≤ narrowFade[0]; null: at every zoom. */
  narrowFade: readonly [number, number] | null;
  /** 0..1, multiplies the lines. */
  opacity: number;
}

export const GRID_DEFAULTS: GridOptions = {
  thetaDivisions: 18,
  phiDivisions: 24,
  lineWidth: 0.008,
  color: [0.35, 0.55, 0.85, 0.55],
  narrowFade: null,
  opacity: 1,
};

const SAMPLES = 144;

/** The grid's circles and meridians as line vertices (lines.ts) in one colour. */
export function gridVertices(
  thetaDivisions: number,
  phiDivisions: number,
  color: readonly number[] = GRID_DEFAULTS.color,
): Float32Array {
  const out: number[] = [];
  for (let i = 1; i < thetaDivisions; i++) {
    const theta = (Math.PI * i) / thetaDivisions;
    const circle = Array.from({ length: SAMPLES + 1 }, (_, k) => unitVector(theta, (2 * Math.PI * k) / SAMPLES));
    appendLine(out, circle, color, LineJoin.MITER);
  }
  for (let j = 0; j < phiDivisions; j++) {
    const phi = (2 * Math.PI * j) / phiDivisions;
    // Meridians stop one division short of the poles, where 24 lines would merge into a blot.
    const start = Math.PI / thetaDivisions;
    const meridian = Array.from({ length: SAMPLES / 2 + 1 }, (_, k) =>
      unitVector(start + ((Math.PI - 2 * start) * k) / (SAMPLES / 2), phi),
    );
    appendLine(out, meridian, color, LineJoin.MITER);
  }
  return new Float32Array(out);
}

export class GridLayer implements Layer<GridOptions> {
  readonly name = 'grid';
  private context: LayerContext | null = null;
  private mesh: LineMesh | null = null;
  private options: GridOptions;

  constructor(options: Partial<GridOptions> = {}) {
    this.options = { ...GRID_DEFAULTS, ...options };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.mesh = new LineMesh(context.gl);
    this.upload();
  }

  update(options: Partial<GridOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    const geometry = (['thetaDivisions', 'phiDivisions', 'color'] as const).some(
      (key) => this.options[key] !== before[key],
    );
    if (geometry) this.upload();
    this.context?.requestFrame();
  }

  private upload(): void {
    this.mesh?.upload(gridVertices(this.options.thetaDivisions, this.options.phiDivisions, this.options.color));
  }

  draw(frame: FrameContext): void {
    const { fovy } = frame.camera;
    const alpha = this.options.opacity * wideFieldAlpha(fovy) * narrowFieldAlpha(fovy, this.options.narrowFade);
    if (alpha <= 0) return;
    // ADD, the default line blend mode (viewer-spec §4); no thinner than the line layer's 3 px (§9).
    const width = (this.options.lineWidth * wideFieldWidth(fovy) * fovy) / 2;
    this.mesh?.draw(frame, width, NARROW_LINE_MIN_WIDTH, BlendMode.ADD, alpha);
  }

  release(): void {
    if (!this.mesh) throw releasedMoreThanOnce();
    this.mesh.release();
    this.mesh = null;
    this.context = null;
  }
}
