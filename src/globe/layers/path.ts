// The path overlay (viewer-spec §3, §4, §5): a JSON list of polylines of [ra, dec] points in
// degrees, optionally wrapped in a field named $any, loaded from a URL the caller supplies (or
// given as data). Drawn in one colour, default (0.25, 0.5, 1, 0.5), with the ADD blend by
// default (or NORMAL), MITER joins by default (or NONE), never narrower than the narrow-line
// minimum. A polyline of fewer than 2 points throws 'Path must include more than 2 points';
// JSON that fails to parse gives an empty overlay.
import type { vec3 } from 'gl-matrix';
import { BlendMode, LineJoin, LineMesh, NARROW_LINE_MIN_WIDTH, appendLine } from '../lines';
import { skyVector } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';

export type PathPoint = [number, number];

export interface PathOptions {
  /** Where the JSON file is read from; ignored when `paths` is given. */
  url: string | null;
  /** Polylines of [ra, dec] in degrees, in place of a file. */
  paths: PathPoint[][] | null;
  color: [number, number, number, number];
  /** Radians on the sphere. */
  width: number;
  /** Pixels. */
  minWidth: number;
  blend: BlendMode;
  join: LineJoin;
}

export const PATH_DEFAULTS: PathOptions = {
  url: null,
  paths: null,
  color: [0.25, 0.5, 1, 0.5],
  width: 0,
  minWidth: NARROW_LINE_MIN_WIDTH,
  blend: BlendMode.ADD,
  join: LineJoin.MITER,
};

/** The polylines of a path file's text: unparsable JSON, or JSON of another shape, gives none. */
export function parsePathFile(text: string): PathPoint[][] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (json && typeof json === 'object' && !Array.isArray(json) && '$any' in json) json = json.$any;
  if (!Array.isArray(json)) return [];
  return json
    .filter(Array.isArray)
    .map((line: unknown[]) =>
      line.filter(
        (point): point is PathPoint =>
          Array.isArray(point) && point.length >= 2 && point.every((value) => typeof value === 'number'),
      ),
    );
}

/** The unit vectors of a polyline, checked: at least 2 points. */
export function pathVectors(points: readonly PathPoint[]): vec3[] {
  if (points.length < 2) throw new Error('Path must include more than 2 points');
  return points.map(([ra, dec]) => skyVector(ra, dec));
}

export class PathLayer implements Layer<PathOptions> {
  readonly name = 'path';
  private context: LayerContext | null = null;
  private mesh: LineMesh | null = null;
  private options: PathOptions;
  private loaded: PathPoint[][] = [];
  private abort = new AbortController();

  constructor(options: Partial<PathOptions> = {}) {
    this.options = { ...PATH_DEFAULTS, ...options };
  }

  create(context: LayerContext): void {
    this.context = context;
    this.mesh = new LineMesh(context.gl);
    this.load();
  }

  update(options: Partial<PathOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.url !== before.url || this.options.paths !== before.paths) this.load();
    else if (this.options.color !== before.color || this.options.join !== before.join) this.upload();
    this.context?.requestFrame();
  }

  private load(): void {
    this.abort.abort();
    this.abort = new AbortController();
    const { url, paths } = this.options;
    if (paths || !url) {
      this.loaded = paths ?? [];
      this.upload();
      return;
    }
    const signal = this.abort.signal;
    fetch(url, { signal })
      .then((response) => (response.ok ? response.text() : ''))
      .then((text) => {
        if (signal.aborted) return;
        this.loaded = parsePathFile(text);
        this.upload();
        this.context?.requestFrame();
      })
      .catch((error: unknown) => {
        if (!signal.aborted) console.error(`path overlay ${url}`, error);
      });
  }

  private upload(): void {
    if (!this.mesh) return;
    const vertices: number[] = [];
    for (const line of this.loaded) appendLine(vertices, pathVectors(line), this.options.color, this.options.join);
    this.mesh.upload(new Float32Array(vertices));
  }

  draw(frame: FrameContext): void {
    this.mesh?.draw(frame, this.options.width, this.options.minWidth, this.options.blend);
  }

  release(): void {
    if (!this.mesh) throw releasedMoreThanOnce();
    this.abort.abort();
    this.mesh.release();
    this.mesh = null;
    this.context = null;
  }
}
