// The cruise map's labels: each at its sky position's point on the canvas, and placed so that
// none lies over another or outside the map (issue 33: "ELAIS-N1 Archipelago" over "Draco Island").
import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/globe/camera';
import { canvasPoint, LABEL_GAP_PX, placeLabels, type Box } from '../../src/app/features/mypage/mapLabels';

const DEGREE = Math.PI / 180;

function overlaps(a: Box, b: Box) {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

describe("a label's point on the map", () => {
  const camera = Object.assign(new Camera(), { theta: (90 - 55) * DEGREE, phi: 242 * DEGREE, fovy: 10 * DEGREE });

  it('is the canvas centre for the camera direction', () => {
    const point = canvasPoint(camera, 400, 300, 242, 55)!;
    expect(point.x).toBeCloseTo(200, 3);
    expect(point.y).toBeCloseTo(150, 3);
  });

  it('is above the centre to the north, a field of view of it at the top edge', () => {
    // Half the field of view north of the centre is the top edge of the canvas.
    const point = canvasPoint(camera, 400, 300, 242, 60)!;
    expect(point.x).toBeCloseTo(200, 3);
    expect(point.y).toBeCloseTo(0, 3);
  });

  it('is east to the left, as the sky is seen from inside', () => {
    expect(canvasPoint(camera, 400, 300, 245, 55)!.x).toBeLessThan(200);
  });

  it('is none behind the eye', () => {
    expect(canvasPoint(camera, 400, 300, 62, -55)).toBeNull();
  });
});

describe('the labels placed', () => {
  const label = (x: number, y: number, width = 120, height = 20) => ({ x, y, width, height });

  it('keep their point when they are apart', () => {
    const boxes = placeLabels([label(100, 100), label(300, 200)], 400, 300);
    expect(boxes).toEqual([
      { left: 40, top: 90, width: 120, height: 20 },
      { left: 240, top: 190, width: 120, height: 20 },
    ]);
  });

  it('move the later one off a point shared with an earlier one, above it first, then below', () => {
    const [first, second, third] = placeLabels([label(200, 150), label(200, 150), label(205, 152)], 400, 300);
    expect(first).toEqual({ left: 140, top: 140, width: 120, height: 20 });
    expect(second).toEqual({ left: 140, top: 140 - 20 - LABEL_GAP_PX, width: 120, height: 20 });
    // Centred or above, it would lie over one of the two before it.
    expect(third).toEqual({ left: 145, top: 142 + 20 + LABEL_GAP_PX, width: 120, height: 20 });
  });

  it('leave out a label with no free spot inside the map, and never overlap', () => {
    const crowd = Array.from({ length: 8 }, (_, index) => label(200 + index, 150 + index));
    const boxes = placeLabels(crowd, 400, 300);
    const placed = boxes.filter((box): box is Box => box !== null);
    expect(placed.length).toBeGreaterThan(1);
    expect(placed.length).toBeLessThan(crowd.length);
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(i + 1)) expect(overlaps(a, b), JSON.stringify([a, b])).toBe(false);
    expect(boxes[0]).not.toBeNull();
  });

  it('stay inside the map, or are left out', () => {
    const [edge, outside, behind] = placeLabels([label(30, 150), label(-50, 150), null], 400, 300);
    // Centred it would cross the left edge; to the right of its point it fits.
    expect(edge).toEqual({ left: 30 + LABEL_GAP_PX, top: 140, width: 120, height: 20 });
    expect(outside).toBeNull();
    expect(behind).toBeNull();
  });
});
