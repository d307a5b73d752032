import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY,
  MAX_PRETTY_FILTERS,
  PRETTY_MIXER_GLSL,
  checkFilterCount,
  mixMatrix,
  prettyColor,
  stretchFilter,
} from '../../src/globe/layers/pretty-picture-mixer';
import { viewTarget } from '../../src/globe/layers/pretty-picture';
import { PRETTY_PICTURES } from '../../shared/prettyPicture';

const PLAIN = { nFilters: 3, a: 1, b: 0, mix: 0, beta: 1000, bias: 0, exposure: 1, gamma: 1, ground: 0 };

/** Column k of a mix matrix: filter k's red, green, blue. */
function column(weights: Float32Array, k: number): number[] {
  return Array.from(weights.slice(3 * k, 3 * k + 3));
}

describe('pretty-picture presets (viewer-spec §1, §3)', () => {
  // The sky data builds one per entry of the same list (skydata/pretty.ts, tests/unit/skydata.test.ts).
  it('are m31, m42, m45, m101 and perseus', () => {
    expect([...PRETTY_PICTURES]).toEqual(['m31', 'm42', 'm45', 'm101', 'perseus']);
  });

  it('a filter count above 4 is not supported (viewer-spec §5)', () => {
    expect(MAX_PRETTY_FILTERS).toBe(4);
    for (const n of [1, 2, 3, 4]) expect(() => checkFilterCount(n)).not.toThrow();
    expect(() => checkFilterCount(5)).toThrow(/not supported/);
    expect(() => checkFilterCount(0)).toThrow(/not supported/);
    expect(() => mixMatrix(0, 5)).toThrow(/not supported/);
  });

  it("a saved view (a, d, fovy, roll) is the camera's phi = a, theta = π/2 − d", () => {
    expect(viewTarget({ a: 1.46, d: -0.094, fovy: 0.02, roll: 0.3 })).toEqual({
      theta: Math.PI / 2 + 0.094,
      phi: 1.46,
      fovy: 0.02,
      roll: 0.3,
    });
  });
});

describe('stretch: s = clamp(asinh(β·a·(x + b)) / asinh(β) + bias, 0, 1), then (1 − cos(π·s)) / 2', () => {
  const shoulder = (s: number) => (1 - Math.cos(Math.PI * s)) / 2;

  it('follows the formula for a, b, beta and bias', () => {
    const preset = { a: 2, b: -0.001, beta: 5000, bias: 0.03 };
    for (const x of [0.001, 0.002, 0.01, 0.05]) {
      const s = Math.asinh(5000 * 2 * (x - 0.001)) / Math.asinh(5000) + 0.03;
      expect(stretchFilter(x, preset)).toBeCloseTo(shoulder(Math.min(1, s)), 12);
    }
  });

  it('b is the black point: x = −b leaves only the bias', () => {
    expect(stretchFilter(0.004, { a: 3, b: -0.004, beta: 100, bias: 0.1 })).toBeCloseTo(shoulder(0.1), 12);
  });

  it('is 0 below the black point and 1 at saturation', () => {
    expect(stretchFilter(-1, PLAIN)).toBe(0);
    expect(stretchFilter(1e9, PLAIN)).toBe(1);
  });

  it('a larger β (a brighter setting) lifts faint light', () => {
    const faint = 1e-4;
    expect(stretchFilter(faint, PLAIN, 10)).toBeGreaterThan(stretchFilter(faint, PLAIN, 1));
    expect(stretchFilter(faint, PLAIN, 0.1)).toBeLessThan(stretchFilter(faint, PLAIN, 1));
    expect(stretchFilter(faint, PLAIN, 3)).toBeCloseTo(stretchFilter(faint, { ...PLAIN, beta: 3000 }), 12);
  });
});

describe('mix: filters (shortest wavelength first) into red, green, blue', () => {
  it('1 filter is grey', () => {
    expect(column(mixMatrix(0, 1), 0)).toEqual([1, 1, 1]);
  });

  it('2 filters: the shorter blue, the longer red, green their mean', () => {
    const m = mixMatrix(0, 2);
    expect(column(m, 0)).toEqual([0, 0.5, 1]);
    expect(column(m, 1)).toEqual([1, 0.5, 0]);
  });

  it('3 filters (g, r, i) are blue, green, red; mix is not used', () => {
    for (const mix of [0, 0.7]) {
      const m = mixMatrix(mix, 3);
      expect([column(m, 0), column(m, 1), column(m, 2), column(m, 3)]).toEqual([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 0],
      ]);
    }
  });

  it('4 filters: red is mix × the third (narrow band) + (1 − mix) × the fourth', () => {
    const m = mixMatrix(0.6, 4);
    expect(column(m, 2).map((v) => +v.toFixed(6))).toEqual([0.6, 0, 0]);
    expect(column(m, 3).map((v) => +v.toFixed(6))).toEqual([0.4, 0, 0]);
    expect(column(m, 0)).toEqual([0, 0, 1]);
    expect(column(m, 1)).toEqual([0, 1, 0]);
  });

  it('a solo filter is shown alone, in grey', () => {
    const m = mixMatrix(0.6, 4, 1);
    expect([column(m, 0), column(m, 1), column(m, 2), column(m, 3)]).toEqual([
      [0, 0, 0],
      [1, 1, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });
});

describe('colour: rgb = clamp((exposure · max(0, M·s + ground))^γ, 0, 1)', () => {
  const fluxes = [0.0005, 0.002, 0.01];
  const s = fluxes.map((x) => stretchFilter(x, PLAIN));

  it('with exposure 1, gamma 1, ground 0 the colour is the mixed stretch', () => {
    const [r, g, b] = prettyColor(fluxes, PLAIN);
    expect(r).toBeCloseTo(s[2], 6);
    expect(g).toBeCloseTo(s[1], 6);
    expect(b).toBeCloseTo(s[0], 6);
  });

  it('applies exposure, ground and gamma in that order', () => {
    const preset = { ...PLAIN, exposure: 0.8, ground: 0.05, gamma: 1.6 };
    const [r, g, b] = prettyColor(fluxes, preset);
    const expose = (v: number) => Math.min(1, Math.pow(0.8 * Math.max(0, v + 0.05), 1.6));
    expect(r).toBeCloseTo(expose(s[2]), 6);
    expect(g).toBeCloseTo(expose(s[1]), 6);
    expect(b).toBeCloseTo(expose(s[0]), 6);
  });

  it('a negative ground clips the sky to black', () => {
    expect(prettyColor([0, 0, 0], { ...PLAIN, bias: 0.02, ground: -0.1 })).toEqual([0, 0, 0]);
  });

  it('a missing (blank) channel counts as flux 0', () => {
    expect(prettyColor([0.01, 0.01], PLAIN)).toEqual(prettyColor([0.01, 0.01, 0], PLAIN));
  });

  it('grayscale shows the mean of red, green and blue', () => {
    const colour = prettyColor(fluxes, PLAIN);
    const mean = (colour[0] + colour[1] + colour[2]) / 3;
    const grey = prettyColor(fluxes, PLAIN, { ...DEFAULT_DISPLAY, grayscale: true });
    expect(grey[0]).toBeCloseTo(mean, 12);
    expect(grey[1]).toBe(grey[0]);
    expect(grey[2]).toBe(grey[0]);
  });

  it('the shader carries every parameter as a uniform and the same steps', () => {
    for (const name of ['a', 'b', 'beta', 'bias', 'mix', 'exposure', 'gamma', 'ground', 'grayscale'])
      expect(PRETTY_MIXER_GLSL).toMatch(new RegExp(`uniform \\w+ u_${name};`));
    expect(PRETTY_MIXER_GLSL).toContain('asinh(u_beta * u_a * (fluxes + u_b)) / asinh(u_beta) + u_bias');
    expect(PRETTY_MIXER_GLSL).toContain('(1.0 - cos(PRETTY_PI * s)) / 2.0');
    expect(PRETTY_MIXER_GLSL).toContain('pow(u_exposure * max(vec3(0.0), rgb + u_ground), vec3(u_gamma))');
  });
});
