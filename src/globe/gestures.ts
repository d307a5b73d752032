// Gestures on the globe canvas with the constants of viewer-spec §4 and §9. Pointer events
// cover mouse, pen and touch alike: one pointer drags the view (a fast release is a swipe that
// keeps it turning), two pinch the zoom; a two-finger tap zooms out (fovy × 2), a double-click
// re-centres on the point clicked, a double-tap re-centres and zooms in (fovy × 0.5); the wheel
// zooms with inertia. From the keyboard, arrows pan by an eighth of the field of view and
// + / − zoom, so the globe is usable without a pointer.
//
// GestureRecognizer turns pointer samples (with their time) into gestures and knows nothing of
// the DOM or the camera, so that its thresholds can be tested with synthetic events.
import { unprojectView, type Camera, type JumpOptions, type JumpTarget } from './camera';

/** viewer-spec §9. Times in ms, distances in CSS px, velocity in px/ms. */
export const GESTURE_CONSTANTS = {
  /** A click moves under 4 px and lasts under 200 ms. */
  clickDistance: 4,
  clickTime: 200,
  /** Taps: the ends of a double-tap's two taps come under 300 ms apart; a tap lasts under 250 ms and moves under 9 px. */
  tapInterval: 300,
  tapTime: 250,
  tapThreshold: 9,
  /** A pointer held still this long is a press. */
  pressTime: 251,
  /** A release faster than this is a swipe. */
  swipeVelocity: 0.3,
  /** The wheel's zoom is spread over this time. */
  wheelInertia: 150,
} as const;

export type Gesture =
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'pinch'; scale: number; x: number; y: number }
  | { type: 'click'; x: number; y: number }
  | { type: 'doubleClick'; x: number; y: number }
  | { type: 'tap'; x: number; y: number }
  | { type: 'doubleTap'; x: number; y: number }
  | { type: 'twoFingerTap'; x: number; y: number }
  | { type: 'press'; x: number; y: number }
  | { type: 'swipe'; vx: number; vy: number };

export interface PointerSample {
  id: number;
  x: number;
  y: number;
  /** ms */
  time: number;
  /** 'mouse', 'pen' or 'touch'; a mouse clicks, the others tap. */
  pointerType: string;
}

interface Track {
  start: PointerSample;
  last: PointerSample;
  /** The farthest the pointer got from where it went down. */
  travel: number;
  /** Recent samples for the release velocity. */
  recent: PointerSample[];
  pressed: boolean;
}

/** The window over which a release's velocity is measured. */
const VELOCITY_WINDOW_MS = 100;

export class GestureRecognizer {
  private readonly tracks = new Map<number, Track>();
  /** The largest number of pointers down together since all were up (tells a two-finger tap). */
  private peakPointers = 0;
  private twoFingerStart = 0;
  private twoFingerMoved = false;
  private pinchDistance = 0;
  private lastClickOrTap: { time: number; x: number; y: number; kind: 'click' | 'tap' } | null = null;

  constructor(private readonly emit: (gesture: Gesture) => void) {}

  down(sample: PointerSample): void {
    this.tracks.set(sample.id, { start: sample, last: sample, travel: 0, recent: [sample], pressed: false });
    if (this.tracks.size === 1) {
      this.peakPointers = 1;
      this.twoFingerMoved = false;
    }
    this.peakPointers = Math.max(this.peakPointers, this.tracks.size);
    if (this.tracks.size === 2) {
      this.twoFingerStart = sample.time;
      this.pinchDistance = this.spread();
    }
  }

  move(sample: PointerSample): void {
    const track = this.tracks.get(sample.id);
    if (!track) return;
    const dx = sample.x - track.last.x;
    const dy = sample.y - track.last.y;
    track.last = sample;
    track.travel = Math.max(track.travel, Math.hypot(sample.x - track.start.x, sample.y - track.start.y));
    track.recent.push(sample);
    while (track.recent.length > 2 && sample.time - track.recent[0].time > VELOCITY_WINDOW_MS) track.recent.shift();
    if (track.travel >= GESTURE_CONSTANTS.tapThreshold) this.twoFingerMoved = true;
    if (this.tracks.size === 1) {
      if (dx !== 0 || dy !== 0) this.emit({ type: 'pan', dx, dy });
    } else if (this.tracks.size === 2) {
      const distance = this.spread();
      const [x, y] = this.centre();
      if (this.pinchDistance > 0 && distance > 0 && distance !== this.pinchDistance)
        this.emit({ type: 'pinch', scale: distance / this.pinchDistance, x, y });
      this.pinchDistance = distance;
      // The midpoint moves half as far as the finger that moved.
      if (dx !== 0 || dy !== 0) this.emit({ type: 'pan', dx: dx / 2, dy: dy / 2 });
    }
  }

  up(sample: PointerSample): void {
    const track = this.tracks.get(sample.id);
    if (!track) return;
    this.move(sample);
    this.tracks.delete(sample.id);
    const duration = sample.time - track.start.time;
    if (this.peakPointers >= 2) {
      // The last finger of a two-finger touch lifting ends it: a tap if quick and still.
      if (
        this.tracks.size === 0 &&
        this.peakPointers === 2 &&
        !this.twoFingerMoved &&
        sample.time - this.twoFingerStart < GESTURE_CONSTANTS.tapTime
      )
        this.emit({ type: 'twoFingerTap', x: sample.x, y: sample.y });
      if (this.tracks.size === 1) this.restartRemaining(sample.time);
      return;
    }
    if (track.pressed) return;
    const kind = sample.pointerType === 'mouse' ? 'click' : 'tap';
    const still =
      kind === 'click'
        ? track.travel < GESTURE_CONSTANTS.clickDistance && duration < GESTURE_CONSTANTS.clickTime
        : track.travel < GESTURE_CONSTANTS.tapThreshold && duration < GESTURE_CONSTANTS.tapTime;
    if (still) {
      const previous = this.lastClickOrTap;
      const double =
        previous !== null &&
        previous.kind === kind &&
        sample.time - previous.time < GESTURE_CONSTANTS.tapInterval &&
        Math.hypot(sample.x - previous.x, sample.y - previous.y) < GESTURE_CONSTANTS.tapThreshold;
      if (double) {
        this.lastClickOrTap = null;
        this.emit({ type: kind === 'click' ? 'doubleClick' : 'doubleTap', x: sample.x, y: sample.y });
      } else {
        this.lastClickOrTap = { time: sample.time, x: sample.x, y: sample.y, kind };
        this.emit({ type: kind, x: sample.x, y: sample.y });
      }
      return;
    }
    const first = track.recent[0];
    const elapsed = sample.time - first.time;
    if (elapsed > 0) {
      const vx = (sample.x - first.x) / elapsed;
      const vy = (sample.y - first.y) / elapsed;
      if (Math.hypot(vx, vy) >= GESTURE_CONSTANTS.swipeVelocity) this.emit({ type: 'swipe', vx, vy });
    }
  }

  cancel(id: number): void {
    this.tracks.delete(id);
  }

  /**
   * Called by a timer pressTime after a pointer went down (and on any later sample): a single
   * pointer still within the tap threshold after pressTime is a press.
   */
  poll(time: number): void {
    if (this.tracks.size !== 1 || this.peakPointers !== 1) return;
    const [track] = this.tracks.values();
    if (
      !track.pressed &&
      track.travel < GESTURE_CONSTANTS.tapThreshold &&
      time - track.start.time >= GESTURE_CONSTANTS.pressTime
    ) {
      track.pressed = true;
      this.emit({ type: 'press', x: track.last.x, y: track.last.y });
    }
  }

  /** Pointers down now. */
  get pointers(): number {
    return this.tracks.size;
  }

  private restartRemaining(time: number): void {
    // The finger left after a pinch measures its velocity afresh (lifting it is no tap: the
    // touch had two fingers).
    const [track] = this.tracks.values();
    track.start = { ...track.last, time };
    track.recent = [track.start];
  }

  private spread(): number {
    const [a, b] = [...this.tracks.values()];
    return a && b ? Math.hypot(a.last.x - b.last.x, a.last.y - b.last.y) : 0;
  }

  private centre(): [number, number] {
    const [a, b] = [...this.tracks.values()];
    return [(a.last.x + b.last.x) / 2, (a.last.y + b.last.y) / 2];
  }
}

export interface GestureTarget {
  camera: Camera;
  /** Called after the camera changed. */
  changed(): void;
  /** The projection's eye distance now (to find the sky under a pointer). */
  eye(): number;
  jumpTo(target: JumpTarget, options?: JumpOptions): void;
  /** Runs `step` once per frame until it returns false. */
  animate(step: (time: number) => boolean): void;
  /** Stops the camera's animations (a new touch catches the sky). */
  stop(): void;
}

/** Wheel zoom: one notch (deltaY ≈ 100) scales fovy by e^0.15. */
const WHEEL_ZOOM_RATE = 0.0015;
const KEY_PAN_FRACTION = 1 / 8;
const KEY_ZOOM_FACTOR = 0.8;
/** A swipe's turning slows with this time constant, ms. */
const SWIPE_DECAY_MS = 250;

/** Turns the view by a drag of (dx, dy) CSS px on a canvas `height` px tall. */
export function panCamera(camera: Camera, dx: number, dy: number, height: number): void {
  const scale = camera.fovy / Math.max(1, height);
  // Dragging the sky right brings what was on the left (east) to the centre.
  camera.phi += (dx * scale) / Math.max(0.05, Math.sin(camera.theta));
  camera.theta -= dy * scale;
}

/**
 * The direction (theta, phi) of the camera's frame under canvas point (x, y) in CSS px: a jump
 * target (the sky's own direction in the default frame, whose pole is the north celestial pole).
 */
export function skyUnder(camera: Camera, eye: number, x: number, y: number, width: number, height: number) {
  const half = camera.projectionScale(eye);
  const planeX = ((x - width / 2) / (height / 2)) * half;
  const planeY = (-(y - height / 2) / (height / 2)) * half;
  const view = unprojectView(planeX, planeY, eye);
  const m = camera.frameViewMatrix();
  // The view matrix is orthogonal: world = transpose(view) · v (column-major storage).
  const world = [0, 1, 2].map((i) => m[3 * i] * view[0] + m[3 * i + 1] * view[1] + m[3 * i + 2] * view[2]);
  return { theta: Math.acos(Math.min(1, Math.max(-1, world[2]))), phi: Math.atan2(world[1], world[0]) };
}

export function attachGestures(canvas: HTMLCanvasElement, target: GestureTarget): () => void {
  let pressTimer: ReturnType<typeof setTimeout> | undefined;

  function point(event: PointerEvent | WheelEvent) {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function apply(gesture: Gesture) {
    const camera = target.camera;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    switch (gesture.type) {
      case 'pan':
        panCamera(camera, gesture.dx, gesture.dy, height);
        target.changed();
        break;
      case 'pinch':
        camera.fovy /= gesture.scale;
        target.changed();
        break;
      case 'twoFingerTap':
        target.jumpTo({ theta: camera.theta, phi: camera.phi, fovy: camera.fovy * 2 }, { keepFovy: true });
        break;
      case 'doubleClick':
        target.jumpTo(skyUnder(camera, target.eye(), gesture.x, gesture.y, width, height), { keepFovy: true });
        break;
      case 'doubleTap':
        target.jumpTo(
          { ...skyUnder(camera, target.eye(), gesture.x, gesture.y, width, height), fovy: camera.fovy * 0.5 },
          { keepFovy: true },
        );
        break;
      case 'swipe': {
        // The sky keeps turning at the release velocity, slowing exponentially.
        let last = performance.now();
        let { vx, vy } = gesture;
        target.animate((time) => {
          const dt = Math.max(0, time - last);
          last = Math.max(last, time);
          panCamera(camera, vx * dt, vy * dt, height);
          const decay = Math.exp(-dt / SWIPE_DECAY_MS);
          vx *= decay;
          vy *= decay;
          return Math.hypot(vx, vy) > 0.01;
        });
        break;
      }
      case 'click':
      case 'tap':
      case 'press':
        break;
    }
  }

  const recognizer = new GestureRecognizer(apply);

  function sample(event: PointerEvent): PointerSample {
    const { x, y } = point(event);
    return { id: event.pointerId, x, y, time: event.timeStamp, pointerType: event.pointerType };
  }

  function onPointerDown(event: PointerEvent) {
    target.stop();
    recognizer.down(sample(event));
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch {
      // A pointer that is not active (a synthetic event) cannot be captured; nothing is lost.
    }
    clearTimeout(pressTimer);
    const downAt = event.timeStamp;
    pressTimer = setTimeout(() => recognizer.poll(downAt + GESTURE_CONSTANTS.pressTime), GESTURE_CONSTANTS.pressTime);
  }
  function onPointerMove(event: PointerEvent) {
    recognizer.move(sample(event));
  }
  function onPointerUp(event: PointerEvent) {
    recognizer.poll(event.timeStamp);
    recognizer.up(sample(event));
    if (recognizer.pointers === 0) clearTimeout(pressTimer);
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  }
  function onPointerCancel(event: PointerEvent) {
    recognizer.cancel(event.pointerId);
    if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  }

  function onWheel(event: WheelEvent) {
    event.preventDefault();
    const delta = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? event.deltaY * 33 : event.deltaY;
    // The notch's zoom is spread evenly over the wheel's inertia time.
    const total = delta * WHEEL_ZOOM_RATE;
    const start = performance.now();
    let applied = 0;
    target.animate((time) => {
      const done = Math.min(1, Math.max(0, (time - start) / GESTURE_CONSTANTS.wheelInertia));
      target.camera.fovy *= Math.exp(total * (done - applied));
      applied = done;
      return done < 1;
    });
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
    target.changed();
  }

  // Touches reach the globe as pointer events only: no browser panning or page zoom on it.
  const touchAction = canvas.style.touchAction;
  canvas.style.touchAction = 'none';
  canvas.addEventListener('keydown', onKeyDown);
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerCancel);
  canvas.addEventListener('wheel', onWheel, { passive: false });
  return () => {
    clearTimeout(pressTimer);
    canvas.style.touchAction = touchAction;
    canvas.removeEventListener('keydown', onKeyDown);
    canvas.removeEventListener('pointerdown', onPointerDown);
    canvas.removeEventListener('pointermove', onPointerMove);
    canvas.removeEventListener('pointerup', onPointerUp);
    canvas.removeEventListener('pointercancel', onPointerCancel);
    canvas.removeEventListener('wheel', onWheel);
  };
}
