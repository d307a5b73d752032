// The path overlay (viewer-spec §3, §4, §5): a JSON list of polylines of [ra, dec] points in
// degrees, optionally wrapped in a field named $any, loaded from a URL the caller supplies (or
// given as data). Drawn in one colour, default (0.25, 0.5, 1, 0.5), with the ADD blend by
// default (or NORMAL), MITER joins by default (or NONE), never narrower than the narrow-line
// minimum. A polyline of fewer than 2 points throws 'Path must include more than 2 points';
// JSON that fails to parse gives an empty overlay. With a vertex gap, each leg stops that many
// pixels short of its points, so that a path joining marked objects (the quest's route) never
// runs over the objects inside their markers; a leg too short for both gaps is left out. The legs
// are cut again when the zoom changes, since the gap is in pixels.
import { vec3 } from 'gl-matrix';
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
  /** Pixels (at rest) left clear around every point of the path; 0 joins the points. */
  vertexGap: number;
}

export const PATH_DEFAULTS: PathOptions = {
  url: null,
  paths: null,
  color: [0.25, 0.5, 1, 0.5],
  width: 0,
  minWidth: NARROW_LINE_MIN_WIDTH,
  blend: BlendMode.ADD,
  join: LineJoin.MITER,
  vertexGap: 0,
};

/** The legs are cut again once the zoom has changed by this factor since they were cut. */
const GAP_RECUT = 1.01;

/** The unit vector of (ra, dec) in degrees, in double precision (the legs may be arc-seconds long). */
function direction([ra, dec]: PathPoint): [number, number, number] {
  const r = (ra * Math.PI) / 180;
  const d = (dec * Math.PI) / 180;
  return [Math.cos(d) * Math.cos(r), Math.cos(d) * Math.sin(r), Math.sin(d)];
}

/**
 * Each leg of `points` without `gap` radians at either end, as the unit vectors of its two ends;
 * legs no longer than 2·gap are left out.
 */
export function gappedLegs(points: readonly PathPoint[], gap: number): [vec3, vec3][] {
  pathVectors(points);
  const legs: [vec3, vec3][] = [];
  for (let k = 1; k < points.length; k++) {
    const a = direction(points[k - 1]);
    const b = direction(points[k]);
    // 2·asin(chord/2) keeps its precision for short legs, where acos(a·b) loses it.
    const angle = 2 * Math.asin(Math.min(1, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) / 2));
    if (angle <= 2 * gap) continue;
    const at = (t: number): vec3 => {
      const wa = Math.sin((1 - t) * angle) / Math.sin(angle);
      const wb = Math.sin(t * angle) / Math.sin(angle);
      return vec3.fromValues(wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]);
    };
    legs.push([at(gap / angle), at(1 - gap / angle)]);
  }
  return legs;
}

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
  /** Radians per pixel the legs were last cut for (null: not cut, or no gap). */
  private cutFor: number | null = null;
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
    else if (
      this.options.color !== before.color ||
      this.options.join !== before.join ||
      this.options.vertexGap !== before.vertexGap
    )
      this.upload();
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

  private upload(radiansPerPixel: number | null = this.cutFor): void {
    if (!this.mesh) return;
    const { color, join, vertexGap } = this.options;
    const vertices: number[] = [];
    if (vertexGap > 0 && radiansPerPixel !== null) {
      for (const line of this.loaded)
        for (const leg of gappedLegs(line, vertexGap * radiansPerPixel)) appendLine(vertices, leg, color, join);
    } else if (vertexGap <= 0) {
      for (const line of this.loaded) appendLine(vertices, pathVectors(line), color, join);
    }
    this.cutFor = vertexGap > 0 ? radiansPerPixel : null;
    this.mesh.upload(new Float32Array(vertices));
  }

  draw(frame: FrameContext): void {
    if (this.options.vertexGap > 0) {
      const radiansPerPixel = frame.camera.fovy / Math.max(1, frame.height);
      const ratio = this.cutFor === null ? Infinity : radiansPerPixel / this.cutFor;
      if (ratio > GAP_RECUT || ratio < 1 / GAP_RECUT) this.upload(radiansPerPixel);
    }
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
