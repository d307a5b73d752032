// Deep links (src/app/components/globe/viewLink.ts): the view and the visible layers written into
// the hash route and read back, so that a shared link opens the same view with the same layers.
import { describe, expect, it } from 'vitest';
import {
  hashWithView,
  layersFromHash,
  linkedLayers,
  showLinkedLayers,
  viewFromHash,
} from '../../src/app/components/globe/viewLink';
import { CAMERA_DEFAULTS, ProjectionMode, type CameraState } from '../../src/globe/camera';

const DEGREE = Math.PI / 180;
const state = (overrides: Partial<CameraState> = {}): CameraState => ({
  mode: CAMERA_DEFAULTS.mode,
  roll: 0,
  theta: (90 - 2.2058) * DEGREE,
  phi: 150.1163 * DEGREE,
  fovy: 0.5 * DEGREE,
  ...overrides,
});

/** A stand-in with the globe's layer calls: the names in drawing order, some hidden. */
function layeredGlobe(names: string[], hidden: string[] = []) {
  const off = new Set(hidden);
  return {
    layerNames: () => [...new Set(names)],
    visibleLayers: () => [...new Set(names)].filter((name) => !off.has(name)),
    setLayerVisible: (name: string, visible: boolean) => void (visible ? off.delete(name) : off.add(name)),
  };
}

describe('view links', () => {
  it('writes ra, dec and fov, and no layers while every layer is drawn', () => {
    expect(hashWithView('#/', state())).toBe('#/?ra=150.11630&dec=2.20580&fov=0.5000');
    expect(hashWithView('#/?course=1', state(), null)).toBe('#/?course=1&ra=150.11630&dec=2.20580&fov=0.5000');
  });

  it('writes the drawn layers with plain commas, and drops them again when all are drawn', () => {
    const hash = hashWithView('#/', state(), ['grid', 'stars', 'survey']);
    expect(hash).toBe('#/?ra=150.11630&dec=2.20580&fov=0.5000&layers=grid,stars,survey');
    expect(hashWithView(hash, state(), null)).toBe('#/?ra=150.11630&dec=2.20580&fov=0.5000');
    // An empty list is a link on which nothing is drawn, not one that says nothing.
    expect(hashWithView('#/', state(), [])).toBe('#/?ra=150.11630&dec=2.20580&fov=0.5000&layers=');
    expect(layersFromHash('#/?layers=')).toEqual([]);
  });

  it('reads back what it writes: view, projection and layers', () => {
    const written = hashWithView('#/', state({ mode: ProjectionMode.GNOMONIC }), ['constellations', 'milky-way']);
    const view = viewFromHash(written);
    expect(view.phi! / DEGREE).toBeCloseTo(150.1163, 4);
    expect(90 - view.theta! / DEGREE).toBeCloseTo(2.2058, 4);
    expect(view.fovy! / DEGREE).toBeCloseTo(0.5, 4);
    expect(view.mode).toBe(ProjectionMode.GNOMONIC);
    expect(layersFromHash(written)).toEqual(['constellations', 'milky-way']);
  });

  it('reads no layers from a link without them, and drops names that are not layer names', () => {
    expect(layersFromHash('#/?ra=1&dec=2&fov=3')).toBeNull();
    expect(layersFromHash('#/login')).toBeNull();
    expect(layersFromHash('#/?layers=grid,,Stars,<b>,grid,survey')).toEqual(['grid', 'survey']);
    expect(layersFromHash('#/?layers=grid%2Cstars')).toEqual(['grid', 'stars']);
  });

  it("says which of a globe's layers a link carries: none when all are drawn", () => {
    const names = ['constellations', 'milky-way', 'grid', 'stars', 'survey', 'survey', 'survey'];
    expect(linkedLayers(layeredGlobe(names))).toBeNull();
    expect(linkedLayers(layeredGlobe(names, ['grid', 'milky-way']))).toEqual(['constellations', 'stars', 'survey']);
  });

  it("draws the layers a link names and hides the globe's others; a link without layers changes nothing", () => {
    const globe = layeredGlobe(['constellations', 'milky-way', 'grid', 'stars', 'survey'], ['grid']);
    showLinkedLayers(globe, '#/?ra=1');
    expect(globe.visibleLayers()).toEqual(['constellations', 'milky-way', 'stars', 'survey']);
    showLinkedLayers(globe, '#/?layers=grid,stars,hips');
    expect(globe.visibleLayers()).toEqual(['grid', 'stars']);
  });
});
