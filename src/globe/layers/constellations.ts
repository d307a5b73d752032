// Constellation lines and names (viewer-spec §1, §3, §4, §9) from the bundled constellation
// data: each line 'name-name' is the great-circle arc between its two stars, drawn with size
// 0.015 in clip-space units (the screen is 2 high: 0.75 % of its height at every zoom), lines
// of the ecliptical constellations in another colour.
// Name billboards, in English, Hiragana or Kanji, are built on the first frame that shows them.
import type { vec3 } from 'gl-matrix';
import { vec3 as vector } from 'gl-matrix';
import { CONSTELLATIONS, lineEnds, type Constellation } from '../../../core/constellations';
import {
  BlendMode,
  LineJoin,
  LineMesh,
  NARROW_LINE_MIN_WIDTH,
  appendLine,
  greatCircle,
  narrowFieldAlpha,
  wideFieldAlpha,
  wideFieldWidth,
} from '../lines';
import { skyVector } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';
import { SpriteLayer, labelImage, type Sprite, type SpriteImage } from './sprites';

export type ConstellationLanguage = 'en' | 'hiragana' | 'kanji';

export interface ConstellationOptions {
  lines: boolean;
  names: boolean;
  language: ConstellationLanguage;
  /** Clip-space units (the screen's height is 2). */
  size: number;
  color: [number, number, number, number];
  eclipticalColor: [number, number, number, number];
  /**
   * Lines and names fully drawn at fovy ≥ narrowFade[1] radians, gone at ≤ narrowFade[0], where
   * a constellation outgrows the screen; null: at every zoom.
   */
  narrowFade: readonly [number, number] | null;
}

export const CONSTELLATION_DEFAULTS: ConstellationOptions = {
  lines: true,
  names: true,
  language: 'en',
  size: 0.015,
  color: [0.45, 0.6, 1, 0.45],
  eclipticalColor: [1, 0.7, 0.35, 0.5],
  narrowFade: [0.05, 0.15],
};

/** One degree per arc segment keeps long lines on the sphere. */
const SEGMENT = Math.PI / 180;

/** The arcs of every line of `constellations`, each with its colour (x, y, z, offset, colour per vertex). */
export function constellationVertices(
  constellations: readonly Constellation[],
  color: readonly number[],
  eclipticalColor: readonly number[],
): Float32Array {
  const out: number[] = [];
  for (const constellation of constellations) {
    const stars = new Map(constellation.stars.map((star) => [star.name, skyVector(star.ra, star.dec)]));
    for (const line of constellation.lines) {
      const [a, b] = lineEnds(line).map((name) => {
        const star = stars.get(name);
        if (!star) throw new Error(`constellation ${constellation.id}: no star '${name}'`);
        return star;
      });
      const steps = Math.max(1, Math.ceil(Math.acos(Math.min(1, vector.dot(a, b))) / SEGMENT));
      appendLine(out, greatCircle(a, b, steps), constellation.ecliptical ? eclipticalColor : color, LineJoin.MITER);
    }
  }
  return new Float32Array(out);
}

/** Where a constellation's name goes: the normalised mean of its stars. */
export function constellationCentre(constellation: Constellation): vec3 {
  const sum = vector.create();
  for (const star of constellation.stars) vector.add(sum, sum, skyVector(star.ra, star.dec));
  return vector.normalize(sum, sum);
}

export class ConstellationLayer implements Layer<ConstellationOptions> {
  readonly name = 'constellations';
  private context: LayerContext | null = null;
  private mesh: LineMesh | null = null;
  private readonly labels = new SpriteLayer();
  private labelsBuilt: ConstellationLanguage | null = null;
  private readonly labelTexts = new Map<string, string>();
  private options: ConstellationOptions;

  constructor(
    options: Partial<ConstellationOptions> = {},
    private readonly constellations: readonly Constellation[] = CONSTELLATIONS,
  ) {
    this.options = { ...CONSTELLATION_DEFAULTS, ...options };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.mesh = new LineMesh(context.gl);
    this.mesh.upload(constellationVertices(this.constellations, this.options.color, this.options.eclipticalColor));
    this.labels.create(context);
  }

  update(options: Partial<ConstellationOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.color !== before.color || this.options.eclipticalColor !== before.eclipticalColor)
      this.mesh?.upload(constellationVertices(this.constellations, this.options.color, this.options.eclipticalColor));
    this.context?.requestFrame();
  }

  /** Builds the name billboards in the current language (on first show, and on a change of language). */
  private buildLabels(): void {
    const { language } = this.options;
    const images = new Map<string, SpriteImage>();
    const sprites: Sprite[] = [];
    this.labelTexts.clear();
    for (const constellation of this.constellations) {
      const text = constellation.name[language];
      images.set(constellation.id, labelImage(text));
      this.labelTexts.set(constellation.id, text);
      const [x, y, z] = constellationCentre(constellation);
      sprites.push({ imageID: constellation.id, position: [x, y, z], color: [1, 1, 1, 0.8] });
    }
    this.labels.update({ images, sprites });
    this.labelsBuilt = language;
  }

  /** The text of each name billboard built, by constellation id (empty before the first show). */
  get namesShown(): ReadonlyMap<string, string> {
    return this.labelTexts;
  }

  /** Whether the name billboards have been built (they are only on first show). */
  get namesBuilt(): boolean {
    return this.labelsBuilt !== null;
  }

  draw(frame: FrameContext): void {
    const fovy = frame.camera.fovy;
    const alpha = narrowFieldAlpha(fovy, this.options.narrowFade);
    if (alpha <= 0) return;
    // Over a wide field the lines give way to the sky (lines.ts); the names stay readable.
    if (this.options.lines)
      this.mesh?.draw(
        frame,
        (this.options.size * wideFieldWidth(fovy) * fovy) / 2,
        NARROW_LINE_MIN_WIDTH,
        BlendMode.ADD,
        alpha * wideFieldAlpha(fovy),
      );
    if (this.options.names) {
      if (this.labelsBuilt !== this.options.language) this.buildLabels();
      this.labels.draw(frame);
    }
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.mesh) throw releasedMoreThanOnce();
    this.mesh.release();
    this.mesh = null;
    this.labels.release(gl);
    this.context = null;
  }
}
