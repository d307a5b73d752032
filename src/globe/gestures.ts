// Mouse and touch gestures on the globe canvas: drag rotates the view, the wheel zooms.
// Pointer events cover mouse, pen and touch alike.
import type { Camera } from './camera';

export interface GestureTarget {
  camera: Camera;
  /** Called after the camera changed. */
  changed(): void;
}

/** Wheel zoom: one notch (deltaY ≈ 100) scales fovy by e^0.15. */
const WHEEL_ZOOM_RATE = 0.0015;

export function attachGestures(canvas: HTMLCanvasElement, target: GestureTarget): () => void {
  let last: { x: number; y: number } | null = null;

  function radiansPerPixel(): number {
    return target.camera.fovy / Math.max(1, canvas.clientHeight);
  }

  function onPointerDown(event: PointerEvent) {
    last = { x: event.clientX, y: event.clientY };
    canvas.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event: PointerEvent) {
    if (!last) return;
    const scale = radiansPerPixel();
    const camera = target.camera;
    // Dragging the sky right brings what was on the left (east) to the centre.
    camera.phi += ((event.clientX - last.x) * scale) / Math.max(0.05, Math.sin(camera.theta));
    camera.theta -= (event.clientY - last.y) * scale;
    camera.normalize();
    last = { x: event.clientX, y: event.clientY };
    target.changed();
  }
  function onPointerUp(event: PointerEvent) {
    last = null;
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  }
  function onWheel(event: WheelEvent) {
    event.preventDefault();
    const delta = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? event.deltaY * 33 : event.deltaY;
    target.camera.fovy *= Math.exp(delta * WHEEL_ZOOM_RATE);
    target.camera.normalize();
    target.changed();
  }

  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerUp);
    canvas.removeEventListener('wheel', onWheel);
  };
}
