// Gestures on the globe canvas: drag rotates the view, the wheel zooms (pointer events cover
// mouse, pen and touch alike); from the keyboard, arrows pan by an eighth of the field of view
// and + / − zoom, so the globe is usable without a pointer.
import type { Camera } from './camera';

export interface GestureTarget {
  camera: Camera;
  /** Called after the camera changed. */
  changed(): void;
}

/** Wheel zoom: one notch (deltaY ≈ 100) scales fovy by e^0.15. */
const WHEEL_ZOOM_RATE = 0.0015;
const KEY_PAN_FRACTION = 1 / 8;
const KEY_ZOOM_FACTOR = 0.8;

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

  function onKeyDown(event: KeyboardEvent) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const camera = target.camera;
    const step = camera.fovy * KEY_PAN_FRACTION;
    switch (event.key) {
      case 'ArrowLeft':
        camera.phi += step / Math.max(0.05, Math.sin(camera.theta));
        break;
      case 'ArrowRight':
        camera.phi -= step / Math.max(0.05, Math.sin(camera.theta));
        break;
      case 'ArrowUp':
        camera.theta -= step;
        break;
      case 'ArrowDown':
        camera.theta += step;
        break;
      case '+':
      case '=':
        camera.fovy *= KEY_ZOOM_FACTOR;
        break;
      case '-':
      case '_':
        camera.fovy /= KEY_ZOOM_FACTOR;
        break;
      default:
        return;
    }
    event.preventDefault();
    camera.normalize();
    target.changed();
  }

  canvas.addEventListener('keydown', onKeyDown);
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    canvas.removeEventListener('keydown', onKeyDown);
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerUp);
    canvas.removeEventListener('wheel', onWheel);
  };
}
