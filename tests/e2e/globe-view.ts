// The globe on a still view, for pixel tests: opened through a deep link, with every control
// hidden, waited on until it stops drawing; where the globe's own camera model puts a star; the
// page's handle (window.galaxyCruiseGlobe, src/app/components/globe/GlobeView.tsx).
import { vec3 } from 'gl-matrix';
import type { Locator, Page } from '@playwright/test';
import { Camera, eyeDistance, projectView } from '../../src/globe/camera';
import { skyVector } from '../../src/globe/visibility';
import { canvasPixels, type PixelWindow } from './canvas-pixels';

const DEGREE = Math.PI / 180;

type Updatable = { update(options: object): void };
export interface Handle {
  globe: {
    frames: number;
    /** Set while the frames are at rest with the view's own tiles in (Globe.restingSince). */
    restingSince: number | null;
    addLayer(layer: unknown): void;
    removeLayer(layer: unknown): void;
    setCamera(state: { theta: number; phi: number; fovy: number }): void;
    canvas: HTMLCanvasElement;
  };
  layers: { constellations: Updatable; milkyWay: Updatable; grid: Updatable; stars: Updatable; hips: Updatable };
  PathLayer: new (options: object) => unknown;
  SpriteLayer: new (options: object) => unknown;
}

/**
 * Opens the globe on a view through a deep link to the credits page, which lies over the same
 * globe: on the main route the cruise moves the camera to the volunteer's galaxy once its quest
 * loads, and a view set before that move would be undone.
 */
export async function openView(page: Page, ra: number, dec: number, fovDegrees: number): Promise<Locator> {
  await page.goto(`/#/credits?ra=${ra}&dec=${dec}&fov=${fovDegrees}`);
  await page.addStyleTag({
    content: '* { visibility: hidden !important } .globe-canvas { visibility: visible !important }',
  });
  await page.waitForFunction(() => 'galaxyCruiseGlobe' in window);
  await page.waitForLoadState('networkidle');
  await settle(page);
  return page.getByTestId('globe-canvas');
}

/**
 * Waits until the globe stops drawing (fades done). With `sharp`, also until its last frame was
 * at rest with the view's own tiles in: on a loaded machine a finer tile may still be coming after
 * 400 ms without a frame.
 */
export async function settle(page: Page, { sharp = false }: { sharp?: boolean } = {}): Promise<void> {
  await page.waitForFunction(
    (sharp) =>
      new Promise<boolean>((resolve) => {
        const { globe } = (window as unknown as { galaxyCruiseGlobe: Handle }).galaxyCruiseGlobe;
        const before = globe.frames;
        setTimeout(() => resolve(globe.frames === before && (!sharp || globe.restingSince !== null)), 400);
      }),
    sharp,
    { timeout: 90_000 },
  );
}

/** Where the page's globe puts (ra, dec) in canvas pixels, by the globe's own camera model. */
export function pixelOf(
  box: { width: number; height: number },
  view: { ra: number; dec: number; fov: number },
  ra: number,
  dec: number,
) {
  const camera = new Camera();
  camera.theta = (90 - view.dec) * DEGREE;
  camera.phi = view.ra * DEGREE;
  camera.fovy = view.fov * DEGREE;
  const eye = eyeDistance(camera.mode, camera.fovy);
  const [x, y] = projectView(vec3.transformMat3(vec3.create(), skyVector(ra, dec), camera.viewMatrix()), eye)!;
  const perUnit = box.height / (2 * camera.projectionScale(eye));
  return { x: box.width / 2 + x * perUnit, y: box.height / 2 - y * perUnit };
}

export async function whole(page: Page, canvas: Locator, name?: string): Promise<PixelWindow> {
  const box = (await canvas.boundingBox())!;
  return canvasPixels(page, canvas, { x0: 0, y0: 0, width: box.width, height: box.height }, name);
}
