// The coordinate grid's lines are never thinner than the line layer's narrow-line minimum of
// 3 px (viewer-spec §9; issue 31: it was 1 px). The layer draws through a recording stand-in for
// WebGL, which keeps the uniforms it is given.
import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/globe/camera';
import { GridLayer } from '../../src/globe/layers/grid';
import type { FrameContext } from '../../src/globe/layers/layer';
import { WIDE_FIELD_ALPHA, narrowFieldAlpha, wideFieldWidth } from '../../src/globe/lines';
import { GRID_NARROW_FADE, skyLineOptions } from '../../src/app/components/globe/settings';

/** A WebGL2 stand-in: every call succeeds; uniform1f values are kept by uniform name. */
function recordingGl(uniforms: Map<string, number>): WebGL2RenderingContext {
  return new Proxy({} as WebGL2RenderingContext, {
    get(_target, property) {
      if (typeof property !== 'string') return undefined;
      if (/^[A-Z_0-9]+$/.test(property)) return 0;
      if (property === 'getUniformLocation') return (_program: unknown, name: string) => name;
      if (property === 'getAttribLocation') return () => 0;
      if (property === 'uniform1f') return (name: string, value: number) => uniforms.set(name, value);
      return () => ({});
    },
  });
}

/** The grid decodes no files: a pool that refuses. */
const NO_DECODER = { run: () => Promise.reject(new Error('the grid decodes nothing')) };

describe('coordinate grid', () => {
  it('draws its lines at least 3 px wide at the default field of view, where 0.008 alone is thinner', () => {
    const uniforms = new Map<string, number>();
    const gl = recordingGl(uniforms);
    const layer = new GridLayer();
    layer.create({ gl, requestFrame: () => {}, decoder: NO_DECODER });
    const camera = new Camera();
    const height = 700;
    const frame = { gl, camera, width: 1000, height, resolution: 1, view: new Float32Array(9), scale: [1, 1], eye: 1 };
    layer.draw(frame as unknown as FrameContext);
    const radiansPerPixel = camera.fovy / height;
    expect(2 * (uniforms.get('u_halfWidth') ?? 0)).toBeGreaterThanOrEqual(3 * radiansPerPixel * 0.999);
  });
});

describe('lines over the sky (issue 38)', () => {
  const DEGREE = Math.PI / 180;

  /** The u_alpha and u_halfWidth (px) the grid draws with at `fovDegrees`, or null when it draws nothing. */
  function gridAt(fovDegrees: number, options: ConstructorParameters<typeof GridLayer>[0] = {}) {
    const uniforms = new Map<string, number>();
    const gl = recordingGl(uniforms);
    const layer = new GridLayer(options);
    layer.create({ gl, requestFrame: () => {}, decoder: NO_DECODER });
    const camera = new Camera();
    camera.fovy = fovDegrees * DEGREE;
    const height = 720;
    const frame = { gl, camera, width: 1280, height, resolution: 1, view: new Float32Array(9), scale: [1, 1], eye: 1 };
    layer.draw(frame as unknown as FrameContext);
    if (!uniforms.has('u_alpha')) return null;
    return { alpha: uniforms.get('u_alpha')!, width: (2 * uniforms.get('u_halfWidth')!) / (camera.fovy / height) };
  }

  it('give way to the sky over a wide field: fainter at the widest field (2 rad) than at 40°, never under 3 px', () => {
    const wide = gridAt(2 / DEGREE)!;
    const middle = gridAt(40)!;
    expect(wide.alpha).toBeCloseTo(WIDE_FIELD_ALPHA, 6);
    expect(middle.alpha).toBe(1);
    expect(wide.width).toBeGreaterThanOrEqual(3 * 0.999);
    expect(wideFieldWidth(2)).toBe(0.5);
  });

  it('leave the answer form’s galaxy uncrossed with the default setting, and keep it with "at every zoom"', () => {
    const faded = skyLineOptions('auto');
    expect(gridAt(0.02, faded.grid)).toBeNull();
    expect(gridAt(2, faded.grid)?.alpha).toBe(1);
    expect(narrowFieldAlpha(0.5 * DEGREE, GRID_NARROW_FADE)).toBeCloseTo(1 / 3, 6);
    expect(gridAt(0.02, skyLineOptions('always').grid)?.alpha).toBe(1);
    expect(gridAt(30, skyLineOptions('off').grid)).toBeNull();
    expect(skyLineOptions('off').constellations.lines).toBe(false);
  });
});
