// The deep-sky layer: the Messier objects, the bright NGC/IC galaxies, nebulae and clusters and
// the Magellanic Clouds (core/deepSky.ts, {dataRepository}/deep-sky/objects.json), each drawn
// where it is as a glow of its catalogued size, axis ratio and position angle, its light added
// to the sky: galaxies warm white with an exponential disc and a bright centre, emission nebulae
// in Hα red, reflection nebulae blue, planetary nebulae teal discs, globular clusters
// concentrated balls, compact open clusters a faint haze of their unresolved stars.
//
// An object is lit by its mean surface brightness (deepSkyLevel), which a telescope keeps at
// every magnification, so it shows at the same brightness from the field where it first spans a
// few pixels (it fades in from MIN_PIXELS to twice that: smaller, its light is a star's) down to
// the narrowest. A nebula's catalogued magnitude is mostly that of the stars in or behind it, so
// a nebula is lit at one level of its kind (NEBULA_LEVELS) instead.
//
// The glows are a catalogue's, not images: where an image of the sky shows an object (a pretty
// picture, pretty-picture.ts; a survey tract, survey.ts), the object gives way to it as it fades
// in (`fields`, each an ImageField: where it lies and how it shows at a zoom).
//
// Drawing: one instanced draw of a 5 × 5-vertex patch per object, placed on the sphere in the
// object's tangent plane, so that even the Large Magellanic Cloud (11°) keeps its shape in every
// projection; an object too small or off the view is collapsed in the vertex shader.
import { vec3 } from 'gl-matrix';
import {
  DEEP_SKY_FILE,
  drawnAxes,
  meanSurfaceBrightness,
  parseDeepSkyFile,
  type DeepSkyKind,
  type DeepSkyObject,
} from '../../../core/deepSky';
import { attributeLocation, compileProgram, uniformLocation } from '../gl';
import { fetchOk } from '../fetch';
import { PROJECTION_GLSL, setProjectionUniforms } from '../projection';
import { skyVector } from '../visibility';
import { releasedMoreThanOnce, type FrameContext, type Layer, type LayerContext } from './layer';

/** Each kind's colour (red, green, blue) and profile (the GLSL below). */
export const DEEP_SKY_COLORS: Record<DeepSkyKind, readonly [number, number, number]> = {
  galaxy: [1, 0.9, 0.76],
  emission: [1, 0.42, 0.5],
  reflection: [0.55, 0.7, 1],
  planetary: [0.5, 1, 0.85],
  globular: [1, 0.94, 0.8],
  open: [0.8, 0.86, 1],
};
const KIND_INDEX: Record<DeepSkyKind, number> = {
  galaxy: 0,
  emission: 1,
  reflection: 2,
  planetary: 3,
  globular: 4,
  open: 5,
};

/** The surface brightness (mag/arcsec²) drawn at LEVEL_AT_REFERENCE. */
export const REFERENCE_SURFACE_BRIGHTNESS = 22;
/** The mean level (0..1 of the screen's white) of an object at the reference surface brightness. */
export const LEVEL_AT_REFERENCE = 0.13;
/**
 * Surface brightness is shown compressed, as the eye sees it (a 2.5-magnitude step is a factor
 * 10^(0.4·0.7) ≈ 1.9 rather than 2.5): the Magellanic Clouds, faint per square arc-second but
 * degrees across, still read, and a small bright galaxy does not blaze.
 */
export const SURFACE_BRIGHTNESS_GAMMA = 0.7;
/** The mean level of an emission and of a reflection nebula. */
export const NEBULA_LEVELS = { emission: 0.12, reflection: 0.06 } as const;
/** An open cluster's haze is its unresolved stars' light only, a fraction of its catalogue light. */
const OPEN_CLUSTER_SHARE = 0.25;
/** An object fades in from this size on screen (px across its minor axis) to twice it. */
export const MIN_PIXELS = 4;
/** The patch reaches this many semi-axes out: each profile is under 1 % there. */
const EXTENT = 1.6;
const PATCH = 4;

/** The mean level drawn over an object's ellipse (before its profile shapes it). */
export function deepSkyLevel(object: Pick<DeepSkyObject, 'magnitude' | 'major' | 'minor' | 'kind'>): number {
  if (object.kind === 'emission' || object.kind === 'reflection') return NEBULA_LEVELS[object.kind];
  const contrast = REFERENCE_SURFACE_BRIGHTNESS - meanSurfaceBrightness(object);
  const level = LEVEL_AT_REFERENCE * 10 ** (0.4 * SURFACE_BRIGHTNESS_GAMMA * contrast);
  return object.kind === 'open' ? level * OPEN_CLUSTER_SHARE : level;
}

/**
 * The profiles, r in semi-axes (1 at the catalogued diameter's edge), each scaled to a mean of 1
 * over the ellipse (r < 1), so that an object's mean level is deepSkyLevel whatever its kind.
 */
export const DEEP_SKY_PROFILE_GLSL = `
float deepSkyProfile(int kind, float r) {
  if (kind == 0) return 5.3 * exp(-3.0 * r) + 9.0 * exp(-r / 0.05); // disc and centre
  if (kind == 3) return 1.25 * smoothstep(1.1, 0.75, r); // a planetary nebula's disc
  if (kind == 4) return 14.0 / (1.0 + r * r / 0.02) - 0.1; // a globular cluster's core
  return 2.7 * exp(-2.5 * r * r); // nebulae and open clusters
}
`;

/** A view as an image field's opacity depends on it. */
export interface FieldView {
  /** The camera's field of view, radians. */
  fovy: number;
  /** One screen pixel at the centre, radians. */
  screenPixel: number;
}

/** Where an image of the sky lies, and how much of it shows at a view: the objects inside give way to it. */
export interface ImageField {
  /** Unit vector of the field's centre. */
  centre: vec3;
  /** Radius of the circle round the field, radians. */
  radius: number;
  /** Its opacity, 0..1, at a view. */
  opacity(view: FieldView): number;
}

export interface DeepSkyOptions {
  /** {dataRepository} of viewer-spec §7. */
  dataRepository: string;
  /** 0..1, multiplies every object. */
  opacity: number;
  fields: readonly ImageField[];
}

const INSTANCE_FLOATS = 10;

const VERTEX = `#version 300 es
in vec2 a_corner; // patch vertex, in semi-axes: −EXTENT … EXTENT
in vec3 a_centre;
in vec3 a_major; // unit tangent along the major axis
in vec2 a_axes; // semi-major, semi-minor (radians)
in float a_level;
in float a_kind;
in float a_shown; // 1 less the opacity of the images over it (ImageField)
${PROJECTION_GLSL}
uniform float u_pixel; // radians per screen pixel at the centre
uniform float u_alpha;
out vec2 v_local;
out float v_level;
flat out int v_kind;
void main() {
  float minorPixels = 2.0 * a_axes.y / u_pixel;
  float alpha = u_alpha * a_shown * clamp(minorPixels / ${MIN_PIXELS.toFixed(1)} - 1.0, 0.0, 1.0);
  v_local = a_corner;
  v_level = a_level * alpha;
  v_kind = int(a_kind);
  vec3 minor = cross(a_centre, a_major);
  vec3 world = normalize(a_centre + a_corner.x * a_axes.x * a_major + a_corner.y * a_axes.y * minor);
  gl_Position = alpha <= 0.0 ? vec4(2.0, 2.0, 2.0, 1.0) : project(world);
}
`;

const FRAGMENT = `#version 300 es
precision mediump float;
${DEEP_SKY_PROFILE_GLSL}
uniform vec3 u_colors[6];
in vec2 v_local;
in float v_level;
flat in int v_kind;
out vec4 color;
void main() {
  float value = v_level * deepSkyProfile(v_kind, length(v_local));
  // Over-exposed light whitens, as a star's core does (star-light.ts).
  vec3 c = u_colors[v_kind];
  color = vec4(mix(c, vec3(1.0), clamp((value - 1.0) / 2.0, 0.0, 1.0)) * min(1.0, max(0.0, value)), 1.0);
}
`;

/** The patch's triangles: (PATCH + 1)² corners in −EXTENT … EXTENT, two triangles per cell. */
function patchCorners(): Float32Array {
  const corner = (i: number) => -EXTENT + (2 * EXTENT * i) / PATCH;
  const out: number[] = [];
  for (let j = 0; j < PATCH; j++)
    for (let i = 0; i < PATCH; i++) {
      const [x0, x1, y0, y1] = [corner(i), corner(i + 1), corner(j), corner(j + 1)];
      out.push(x0, y0, x1, y0, x0, y1, x0, y1, x1, y0, x1, y1);
    }
  return new Float32Array(out);
}

/** The unit tangent at `centre` pointing along position angle `degrees` (north through east). */
export function majorAxis(centre: vec3, degrees: number): vec3 {
  const north = vec3.normalize(
    vec3.create(),
    vec3.fromValues(-centre[0] * centre[2], -centre[1] * centre[2], 1 - centre[2] * centre[2]),
  );
  if (!Number.isFinite(north[0])) vec3.set(north, 1, 0, 0); // at a pole any direction is north
  const east = vec3.cross(vec3.create(), vec3.fromValues(0, 0, 1), centre);
  if (vec3.length(east) < 1e-9) vec3.cross(east, north, centre);
  vec3.normalize(east, east);
  const angle = (degrees * Math.PI) / 180;
  return vec3.normalize(
    vec3.create(),
    vec3.add(
      vec3.create(),
      vec3.scale(vec3.create(), north, Math.cos(angle)),
      vec3.scale(vec3.create(), east, Math.sin(angle)),
    ),
  );
}

export class DeepSkyLayer implements Layer<DeepSkyOptions> {
  readonly name = 'deep-sky';
  private context: LayerContext | null = null;
  private program: WebGLProgram | null = null;
  private vertexArray: WebGLVertexArrayObject | null = null;
  private cornerBuffer: WebGLBuffer | null = null;
  private instanceBuffer: WebGLBuffer | null = null;
  private shownBuffer: WebGLBuffer | null = null;
  private count = 0;
  /** The fields (indices into options.fields) that hold each object. */
  private holders: number[][] = [];
  /** The view the objects' a_shown was computed for (null: to be computed). */
  private shownFor: FieldView | null = null;
  private objects: DeepSkyObject[] = [];
  private abort = new AbortController();
  private options: DeepSkyOptions;
  private pending = true;

  constructor(options: Partial<DeepSkyOptions> & { dataRepository: string }) {
    this.options = { opacity: 1, fields: [], ...options };
  }

  /** The objects read (tests and the console). */
  get catalogue(): readonly DeepSkyObject[] {
    return this.objects;
  }

  create(context: LayerContext): void {
    const { gl } = context;
    this.context = context;
    this.program = compileProgram(gl, VERTEX, FRAGMENT);
    this.vertexArray = gl.createVertexArray();
    this.cornerBuffer = gl.createBuffer();
    this.instanceBuffer = gl.createBuffer();
    this.shownBuffer = gl.createBuffer();
    gl.bindVertexArray(this.vertexArray);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.cornerBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, patchCorners(), gl.STATIC_DRAW);
    const corner = attributeLocation(gl, this.program, 'a_corner');
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.instanceBuffer);
    let offset = 0;
    for (const [name, size] of [
      ['a_centre', 3],
      ['a_major', 3],
      ['a_axes', 2],
      ['a_level', 1],
      ['a_kind', 1],
    ] as const) {
      const location = attributeLocation(gl, this.program, name);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, INSTANCE_FLOATS * 4, offset * 4);
      gl.vertexAttribDivisor(location, 1);
      offset += size;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, this.shownBuffer);
    const shown = attributeLocation(gl, this.program, 'a_shown');
    gl.enableVertexAttribArray(shown);
    gl.vertexAttribPointer(shown, 1, gl.FLOAT, false, 0, 0);
    gl.vertexAttribDivisor(shown, 1);
    gl.bindVertexArray(null);
    this.load();
  }

  update(options: Partial<DeepSkyOptions>): void {
    const before = this.options;
    this.options = { ...before, ...options };
    if (this.options.dataRepository !== before.dataRepository) this.load();
    else if (this.options.fields !== before.fields) this.placeInFields();
    this.context?.requestFrame();
  }

  /** Whether the catalogue is still on its way (a view is not at rest without it). */
  loading(): boolean {
    return this.pending;
  }

  private load(): void {
    this.abort.abort();
    const abort = (this.abort = new AbortController());
    this.pending = true;
    void fetchOk(`${this.options.dataRepository}/${DEEP_SKY_FILE}`, abort.signal)
      .then(async (response) => parseDeepSkyFile(await response.json()))
      .then((objects) => {
        if (abort.signal.aborted) return;
        this.objects = objects;
        this.upload();
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) console.error('deep-sky objects failed to load', error);
      })
      .finally(() => {
        if (abort.signal.aborted) return;
        this.pending = false;
        this.context?.requestFrame();
      });
  }

  /** The objects' instances. */
  private upload(): void {
    const gl = this.context?.gl;
    if (!gl) return;
    const data = new Float32Array(this.objects.length * INSTANCE_FLOATS);
    this.objects.forEach((object, k) => {
      const centre = skyVector(object.ra, object.dec);
      const axes = drawnAxes(object);
      const arcminute = Math.PI / 180 / 60;
      data.set(
        [
          ...centre,
          ...majorAxis(centre, axes.positionAngle),
          (axes.major / 2) * arcminute,
          (axes.minor / 2) * arcminute,
          deepSkyLevel(object),
          KIND_INDEX[object.kind],
        ],
        k * INSTANCE_FLOATS,
      );
    });
    gl.bindBuffer(gl.ARRAY_BUFFER, this.instanceBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    this.count = this.objects.length;
    this.placeInFields();
  }

  /** Which fields hold each object (its centre within the field's circle). */
  private placeInFields(): void {
    const { fields } = this.options;
    this.holders = this.objects.map((object) => {
      const centre = skyVector(object.ra, object.dec);
      return fields.flatMap((field, index) =>
        Math.acos(Math.min(1, vec3.dot(field.centre, centre))) <= field.radius ? [index] : [],
      );
    });
    this.shownFor = null;
  }

  /** Each object's share left by the images over it at `view`, uploaded when the view changed. */
  private updateShown(gl: WebGL2RenderingContext, view: FieldView): void {
    if (this.shownFor && this.shownFor.fovy === view.fovy && this.shownFor.screenPixel === view.screenPixel) return;
    const { fields } = this.options;
    const shown = Float32Array.from(this.holders, (holders) =>
      holders.reduce((left, index) => left * (1 - fields[index].opacity(view)), 1),
    );
    gl.bindBuffer(gl.ARRAY_BUFFER, this.shownBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, shown, gl.DYNAMIC_DRAW);
    this.shownFor = view;
  }

  draw(frame: FrameContext): void {
    const { gl } = frame;
    const program = this.program;
    if (!program || this.count === 0 || this.options.opacity <= 0) return;
    const screenPixel = (2 * frame.camera.projectionScale(frame.eye)) / frame.height;
    this.updateShown(gl, { fovy: frame.camera.fovy, screenPixel });
    gl.useProgram(program);
    setProjectionUniforms(gl, program, frame);
    gl.uniform1f(uniformLocation(gl, program, 'u_pixel'), screenPixel);
    gl.uniform1f(uniformLocation(gl, program, 'u_alpha'), this.options.opacity);
    gl.uniform3fv(
      uniformLocation(gl, program, 'u_colors'),
      Object.keys(KIND_INDEX).flatMap((kind) => [...DEEP_SKY_COLORS[kind as DeepSkyKind]]),
    );
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE);
    gl.bindVertexArray(this.vertexArray);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, PATCH * PATCH * 6, this.count);
    gl.bindVertexArray(null);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
  }

  release(gl: WebGL2RenderingContext): void {
    if (!this.program) throw releasedMoreThanOnce();
    this.abort.abort();
    gl.deleteProgram(this.program);
    gl.deleteVertexArray(this.vertexArray);
    gl.deleteBuffer(this.cornerBuffer);
    gl.deleteBuffer(this.instanceBuffer);
    gl.deleteBuffer(this.shownBuffer);
    this.program = null;
    this.context = null;
  }
}
