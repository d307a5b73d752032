// Where the cruise map's labels go (application-spec §2's map labels): each label's point on the
// map's canvas, and a placement in which no label lies over another. Labels of levels far apart
// on the sky crowd together once the map is zoomed out ("ELAIS-N1 Archipelago" was drawn over
// "Draco Island"), so each label, in order of priority, takes the first of a few spots around its
// point that is free and inside the map; a label with no free spot is left out, its name still in
// the voyage log's list of levels.
import type { Camera } from '../../../globe/camera';
import { eyeDistance, projectView } from '../../../globe/camera';
import { skyVector } from '../../../globe/visibility';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A label to place: its point on the canvas (CSS px) and its size. */
export interface LabelCandidate {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The gap between a label moved off its point and the point, CSS px. */
export const LABEL_GAP_PX = 4;

/** The point (CSS px from the canvas's top left) of sky position ra, dec (degrees); null if behind. */
export function canvasPoint(
  camera: Camera,
  width: number,
  height: number,
  ra: number,
  dec: number,
): { x: number; y: number } | null {
  const world = skyVector(ra, dec);
  const m = camera.viewMatrix();
  // Column-major: view = M · world.
  const view = [0, 1, 2].map((i) => m[i] * world[0] + m[3 + i] * world[1] + m[6 + i] * world[2]);
  const plane = projectView(view, eyeDistance(camera.mode, camera.fovy));
  if (!plane) return null;
  const half = camera.projectionScale();
  return { x: width / 2 + (plane[0] / half) * (height / 2), y: height / 2 - (plane[1] / half) * (height / 2) };
}

/**
 * The spots a label may take around its point, the first preferred: centred on it; a row above
 * or below (clear of a label centred on the same point); beside it, right or left.
 */
function spots({ x, y, width, height }: LabelCandidate): Box[] {
  const centred = { left: x - width / 2, top: y - height / 2, width, height };
  return [
    centred,
    { ...centred, top: centred.top - height - LABEL_GAP_PX },
    { ...centred, top: centred.top + height + LABEL_GAP_PX },
    { ...centred, left: x + LABEL_GAP_PX },
    { ...centred, left: x - width - LABEL_GAP_PX },
  ];
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

function inside(box: Box, width: number, height: number): boolean {
  return box.left >= 0 && box.top >= 0 && box.left + box.width <= width && box.top + box.height <= height;
}

/**
 * Places the labels, given in order of priority, on a width × height canvas: each gets the first
 * of its spots that lies inside the canvas and over no label placed before it, or null (left out).
 * A candidate that is itself null (its point behind the eye) stays null.
 */
export function placeLabels(
  candidates: readonly (LabelCandidate | null)[],
  width: number,
  height: number,
): (Box | null)[] {
  const placed: Box[] = [];
  return candidates.map((candidate) => {
    if (!candidate) return null;
    const spot = spots(candidate).find(
      (box) => inside(box, width, height) && !placed.some((other) => overlaps(box, other)),
    );
    if (spot) placed.push(spot);
    return spot ?? null;
  });
}
