// The coordinate grid's lines are never thinner than the line layer's narrow-line minimum of
// 3 px (viewer-spec §9; issue 31: it was 1 px). The layer draws through a recording stand-in for
// WebGL, which keeps the uniforms it is given.
import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/globe/camera';
import { GridLayer } from '../../src/globe/layers/grid';
import type { FrameContext } from '../../src/globe/layers/layer';

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

describe('coordinate grid', () => {
  it('draws its lines at least 3 px wide at the default field of view, where 0.008 alone is thinner', () => {
    const uniforms = new Map<string, number>();
    const gl = recordingGl(uniforms);
    const layer = new GridLayer();
    layer.create({ gl, requestFrame: () => {} });
    const camera = new Camera();
    const height = 700;
    const frame = { gl, camera, width: 1000, height, resolution: 1, view: new Float32Array(9), scale: [1, 1], eye: 1 };
    layer.draw(frame as unknown as FrameContext);
    const radiansPerPixel = camera.fovy / height;
    expect(2 * (uniforms.get('u_halfWidth') ?? 0)).toBeGreaterThanOrEqual(3 * radiansPerPixel * 0.999);
  });
});
