// Gesture classification with synthetic pointer samples and injected time (viewer-spec §4, §9).
import { describe, expect, it } from 'vitest';
import { Camera } from '../../src/globe/camera';
import { GESTURE_CONSTANTS, GestureRecognizer, skyUnder, type Gesture } from '../../src/globe/gestures';

function recorder() {
  const gestures: Gesture[] = [];
  const recognizer = new GestureRecognizer((gesture) => gestures.push(gesture));
  const types = () => gestures.map((gesture) => gesture.type).filter((type) => type !== 'pan');
  return { gestures, recognizer, types };
}

function press(
  recognizer: GestureRecognizer,
  { id = 1, x = 100, y = 100, at = 0, duration = 50, dx = 0, dy = 0, pointerType = 'mouse' } = {},
) {
  recognizer.down({ id, x, y, time: at, pointerType });
  if (dx || dy) recognizer.move({ id, x: x + dx, y: y + dy, time: at + duration / 2, pointerType });
  recognizer.up({ id, x: x + dx, y: y + dy, time: at + duration, pointerType });
}

describe('the spec constants', () => {
  it('are those of viewer-spec §9', () => {
    expect(GESTURE_CONSTANTS).toEqual({
      clickDistance: 4,
      clickTime: 200,
      tapInterval: 300,
      tapTime: 250,
      tapThreshold: 9,
      pressTime: 251,
      swipeVelocity: 0.3,
      wheelInertia: 150,
    });
  });
});

describe('click: movement under 4 px and duration under 200 ms', () => {
  it('3 px in 199 ms is a click', () => {
    const { recognizer, types } = recorder();
    press(recognizer, { dx: 3, duration: 199 });
    expect(types()).toEqual(['click']);
  });
  it('4 px is not a click, nor is 200 ms', () => {
    const a = recorder();
    press(a.recognizer, { dx: 4, duration: 100 });
    expect(a.types()).not.toContain('click');
    const b = recorder();
    press(b.recognizer, { duration: 200 });
    expect(b.types()).not.toContain('click');
  });
  it('two clicks ending 299 ms apart are a double-click; 300 ms apart they are two clicks', () => {
    const a = recorder();
    press(a.recognizer, { at: 0, duration: 50 });
    press(a.recognizer, { at: 299, duration: 50 });
    expect(a.types()).toEqual(['click', 'doubleClick']);
    const b = recorder();
    press(b.recognizer, { at: 0, duration: 50 });
    press(b.recognizer, { at: 300, duration: 50 });
    expect(b.types()).toEqual(['click', 'click']);
  });
});

describe('tap: time 250 ms, threshold 9 px, interval 300 ms', () => {
  it('8 px in 249 ms is a tap; 9 px or 250 ms is not', () => {
    const a = recorder();
    press(a.recognizer, { pointerType: 'touch', dx: 8, duration: 249 });
    expect(a.types()).toEqual(['tap']);
    const b = recorder();
    press(b.recognizer, { pointerType: 'touch', dx: 9, duration: 100 });
    expect(b.types()).not.toContain('tap');
    const c = recorder();
    press(c.recognizer, { pointerType: 'touch', duration: 250 });
    expect(c.types()).not.toContain('tap');
  });
  it('two taps ending under 300 ms apart are a double-tap at the second tap', () => {
    const { recognizer, types, gestures } = recorder();
    press(recognizer, { pointerType: 'touch', at: 0, duration: 100 });
    press(recognizer, { pointerType: 'touch', at: 290, duration: 100, x: 105 });
    expect(types()).toEqual(['tap', 'doubleTap']);
    expect(gestures.at(-1)).toMatchObject({ x: 105, y: 100 });
  });
  it('taps farther apart than the threshold are two taps', () => {
    const { recognizer, types } = recorder();
    press(recognizer, { pointerType: 'touch', at: 0, duration: 100 });
    press(recognizer, { pointerType: 'touch', at: 200, duration: 100, x: 120 });
    expect(types()).toEqual(['tap', 'tap']);
  });
});

describe('two-finger tap', () => {
  it('two still fingers lifted within 250 ms are a two-finger tap, not taps', () => {
    const { recognizer, types } = recorder();
    recognizer.down({ id: 1, x: 100, y: 100, time: 0, pointerType: 'touch' });
    recognizer.down({ id: 2, x: 200, y: 100, time: 10, pointerType: 'touch' });
    recognizer.up({ id: 1, x: 100, y: 100, time: 120, pointerType: 'touch' });
    recognizer.up({ id: 2, x: 200, y: 100, time: 130, pointerType: 'touch' });
    expect(types()).toEqual(['twoFingerTap']);
  });
  it('held 250 ms or more it is nothing', () => {
    const { recognizer, types } = recorder();
    recognizer.down({ id: 1, x: 100, y: 100, time: 0, pointerType: 'touch' });
    recognizer.down({ id: 2, x: 200, y: 100, time: 0, pointerType: 'touch' });
    recognizer.up({ id: 1, x: 100, y: 100, time: 250, pointerType: 'touch' });
    recognizer.up({ id: 2, x: 200, y: 100, time: 260, pointerType: 'touch' });
    expect(types()).toEqual([]);
  });
});

describe('pinch', () => {
  it('spreading two fingers from 100 to 200 px zooms by 2 about their midpoint', () => {
    const { recognizer, gestures } = recorder();
    recognizer.down({ id: 1, x: 100, y: 100, time: 0, pointerType: 'touch' });
    recognizer.down({ id: 2, x: 200, y: 100, time: 0, pointerType: 'touch' });
    recognizer.move({ id: 1, x: 50, y: 100, time: 50, pointerType: 'touch' });
    recognizer.move({ id: 2, x: 250, y: 100, time: 60, pointerType: 'touch' });
    recognizer.up({ id: 1, x: 50, y: 100, time: 300, pointerType: 'touch' });
    recognizer.up({ id: 2, x: 250, y: 100, time: 300, pointerType: 'touch' });
    const scale = gestures
      .filter((gesture) => gesture.type === 'pinch')
      .reduce((product, gesture) => product * (gesture.type === 'pinch' ? gesture.scale : 1), 1);
    expect(scale).toBeCloseTo(2, 12);
    expect(gestures.map((gesture) => gesture.type)).not.toContain('twoFingerTap');
    expect(gestures.map((gesture) => gesture.type)).not.toContain('tap');
  });
});

describe('press: held still 251 ms', () => {
  it('is a press at 251 ms, not at 250, and its release is no tap', () => {
    const { recognizer, types } = recorder();
    recognizer.down({ id: 1, x: 100, y: 100, time: 0, pointerType: 'touch' });
    recognizer.poll(250);
    expect(types()).toEqual([]);
    recognizer.poll(251);
    expect(types()).toEqual(['press']);
    recognizer.up({ id: 1, x: 100, y: 100, time: 400, pointerType: 'touch' });
    expect(types()).toEqual(['press']);
  });
  it('a pointer that moved 9 px is no press', () => {
    const { recognizer, types } = recorder();
    recognizer.down({ id: 1, x: 100, y: 100, time: 0, pointerType: 'touch' });
    recognizer.move({ id: 1, x: 109, y: 100, time: 100, pointerType: 'touch' });
    recognizer.poll(300);
    expect(types()).toEqual([]);
  });
});

describe('swipe: released at 0.3 px/ms or faster', () => {
  it('100 px in the last 100 ms (1 px/ms) is a swipe with that velocity', () => {
    const { recognizer, gestures } = recorder();
    recognizer.down({ id: 1, x: 0, y: 0, time: 0, pointerType: 'touch' });
    for (let k = 1; k <= 10; k++) recognizer.move({ id: 1, x: 10 * k, y: 0, time: 10 * k, pointerType: 'touch' });
    recognizer.up({ id: 1, x: 100, y: 0, time: 100, pointerType: 'touch' });
    const swipe = gestures.find((gesture) => gesture.type === 'swipe');
    expect(swipe).toMatchObject({ type: 'swipe', vx: 1, vy: 0 });
    // Every move on the way panned by its step.
    expect(gestures.filter((gesture) => gesture.type === 'pan')).toHaveLength(10);
  });
  it('a drag released at 0.29 px/ms is no swipe; at 0.3 it is', () => {
    for (const [speed, swiped] of [
      [0.29, false],
      [0.3, true],
    ] as const) {
      const { recognizer, types } = recorder();
      recognizer.down({ id: 1, x: 0, y: 0, time: 0, pointerType: 'mouse' });
      recognizer.move({ id: 1, x: 0, y: 50 * speed, time: 50, pointerType: 'mouse' });
      recognizer.up({ id: 1, x: 0, y: 100 * speed, time: 100, pointerType: 'mouse' });
      expect(types().includes('swipe')).toBe(swiped);
    }
  });
});

describe('skyUnder', () => {
  it('the centre of the canvas is the view direction; a point right of it is west (smaller ra)', () => {
    const camera = new Camera();
    camera.theta = 1.2;
    camera.phi = 2;
    camera.fovy = 0.5;
    const centre = skyUnder(camera, 1, 400, 300, 800, 600);
    expect(centre.theta).toBeCloseTo(1.2, 6);
    expect(centre.phi).toBeCloseTo(2, 6);
    const right = skyUnder(camera, 1, 700, 300, 800, 600);
    expect(right.phi).toBeLessThan(2);
  });
});
