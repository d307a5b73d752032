// What the globe suite injects into a page before its own scripts, the same for both contenders
// (our globe and Aladin Lite), so that each is measured by the same code:
//   - WebGL draw calls are counted: an animation frame in which one was made is a frame drawn;
//   - the bytes of the live textures are followed through the WebGL calls that allocate them
//     (texImage2D/3D, texStorage2D/3D, generateMipmap) and free them (deleteTexture): the
//     texture bytes as the GPU holds them, whatever each contender's own book-keeping says;
//   - a requestAnimationFrame loop records every frame's timestamp and whether it drew, and
//     moves the camera along the scripted path (window.__bench.drive) while a cruise runs;
//   - main-thread long tasks are listed by a PerformanceObserver.
// The camera path is a function of time, so both contenders fly exactly the same one.

/** A view: centre (degrees) and vertical field of view (degrees). */
export interface View {
  ra: number;
  dec: number;
  fov: number;
}

/** The scripted cruise's legs, each a fraction of its duration. */
export interface CruisePath {
  /** Panned at fov 60° from `start` to `panned`, … */
  start: View;
  panned: View;
  /** … then to the target and zoomed from 60° onto it at `target.fov` (0.01°), … */
  target: View;
  /** … a long jump (the zoom dipping to 60° on the way) to the HiPS at 10°, panned to `end`. */
  hips: View;
  end: View;
}

/**
 * The page-side path: at `elapsed` (0..1 of the cruise) the view of `path`. Written as a function
 * source for the page; the legs as CruisePath says: 0–0.2 pan, 0.2–0.25 to the target, 0.25–0.6
 * zoom onto it, 0.6–0.8 the long jump, 0.8–1 the HiPS at 10°.
 */
export const VIEW_AT = `(path, elapsed) => {
  const rad = Math.PI / 180;
  const vector = (v) => [Math.cos(v.dec * rad) * Math.cos(v.ra * rad), Math.cos(v.dec * rad) * Math.sin(v.ra * rad), Math.sin(v.dec * rad)];
  const slerp = (a, b, s) => {
    const [p, q] = [vector(a), vector(b)];
    const omega = Math.acos(Math.min(1, Math.max(-1, p[0] * q[0] + p[1] * q[1] + p[2] * q[2])));
    const [k0, k1] = omega < 1e-9 ? [1 - s, s] : [Math.sin((1 - s) * omega) / Math.sin(omega), Math.sin(s * omega) / Math.sin(omega)];
    const [x, y, z] = [0, 1, 2].map((i) => k0 * p[i] + k1 * q[i]);
    return { ra: ((Math.atan2(y, x) / rad) + 360) % 360, dec: Math.asin(Math.max(-1, Math.min(1, z / Math.hypot(x, y, z)))) / rad };
  };
  const ease = (s) => s * s * (3 - 2 * s);
  const leg = (from, to) => Math.min(1, Math.max(0, (elapsed - from) / (to - from)));
  const logLerp = (a, b, s) => Math.exp(Math.log(a) + (Math.log(b) - Math.log(a)) * s);
  if (elapsed < 0.2) return { ...slerp(path.start, path.panned, leg(0, 0.2)), fov: path.start.fov };
  if (elapsed < 0.25) return { ...slerp(path.panned, path.target, ease(leg(0.2, 0.25))), fov: path.start.fov };
  if (elapsed < 0.6) return { ...slerp(path.target, path.target, 0), fov: logLerp(path.start.fov, path.target.fov, ease(leg(0.25, 0.6))) };
  if (elapsed < 0.8) {
    const s = ease(leg(0.6, 0.8));
    return { ...slerp(path.target, path.hips, s), fov: Math.max(logLerp(path.target.fov, path.hips.fov, s), path.start.fov * Math.sin(Math.PI * s)) };
  }
  return { ...slerp(path.hips, path.end, leg(0.8, 1)), fov: path.hips.fov };
}`;

export const PROBE = `(() => {
  const bench = (window.__bench = { draws: 0, ticks: [], drewAt: [], longTasks: [], textures: new Map(), drive: null });
  const BYTES = { 0x8229: 1, 0x822b: 2, 0x822d: 2, 0x822e: 4, 0x822f: 4, 0x8230: 8, 0x8051: 3, 0x8058: 4,
    0x881a: 8, 0x881b: 6, 0x8814: 16, 0x8815: 12, 0x8c43: 4, 0x8232: 1, 0x8234: 2, 0x8236: 4, 0x8235: 4,
    0x8233: 2, 0x8d7c: 4, 0x81a5: 2, 0x81a6: 4, 0x88f0: 4, 0x8cac: 4, 0x1907: 3, 0x1908: 4, 0x1909: 1,
    0x190a: 2, 0x1906: 1 };
  const bound = new WeakMap();
  const state = (gl) => { let s = bound.get(gl); if (!s) bound.set(gl, (s = { unit: 0x84c0, targets: new Map() })); return s; };
  const owner = (target) => (target >= 0x8515 && target <= 0x851a ? 0x8513 : target);
  const texture = (gl, target) => state(gl).targets.get(state(gl).unit + ':' + owner(target));
  const record = (gl, target, key, bytes) => {
    const t = texture(gl, target);
    if (!t) return;
    let levels = bench.textures.get(t);
    if (!levels) bench.textures.set(t, (levels = new Map()));
    levels.set(target + ':' + key, bytes);
  };
  const size = (source) => [source.naturalWidth || source.videoWidth || source.width || 0,
    source.naturalHeight || source.videoHeight || source.height || 0];
  for (const Context of [window.WebGL2RenderingContext, window.WebGLRenderingContext]) {
    if (!Context) continue;
    const proto = Context.prototype;
    const wrap = (name, after) => {
      const original = proto[name];
      if (typeof original !== 'function') return;
      proto[name] = function (...args) { const result = original.apply(this, args); after(this, args); return result; };
    };
    for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced', 'drawRangeElements'])
      wrap(name, () => bench.draws++);
    wrap('activeTexture', (gl, [unit]) => (state(gl).unit = unit));
    wrap('bindTexture', (gl, [target, t]) => state(gl).targets.set(state(gl).unit + ':' + target, t));
    wrap('deleteTexture', (gl, [t]) => bench.textures.delete(t));
    wrap('texImage2D', (gl, args) => {
      const [target, level, format] = args;
      const [w, h] = args.length >= 8 ? [args[3], args[4]] : size(args[5]);
      record(gl, target, level, w * h * (BYTES[format] ?? 4));
    });
    wrap('texImage3D', (gl, [target, level, format, w, h, d]) => record(gl, target, level, w * h * d * (BYTES[format] ?? 4)));
    wrap('texStorage2D', (gl, [target, levels, format, w, h]) => {
      for (let l = 0; l < levels; l++)
        record(gl, target, l, Math.max(1, w >> l) * Math.max(1, h >> l) * (BYTES[format] ?? 4) * (target === 0x8513 ? 6 : 1));
    });
    wrap('texStorage3D', (gl, [target, levels, format, w, h, d]) => {
      for (let l = 0; l < levels; l++)
        record(gl, target, l, Math.max(1, w >> l) * Math.max(1, h >> l) * (target === 0x806f ? Math.max(1, d >> l) : d) * (BYTES[format] ?? 4));
    });
    wrap('generateMipmap', (gl, [target]) => {
      const t = texture(gl, target);
      const levels = t && bench.textures.get(t);
      if (levels) levels.set('mipmaps', ((levels.get(target + ':0') ?? 0) / 3) * (target === 0x8513 ? 6 : 1));
    });
  }
  bench.textureBytes = () => {
    let total = 0;
    for (const levels of bench.textures.values()) for (const bytes of levels.values()) total += bytes;
    return total;
  };
  let drawsBefore = 0;
  const tick = (time) => {
    bench.ticks.push(time);
    if (bench.draws !== drawsBefore) bench.drewAt.push(time);
    drawsBefore = bench.draws;
    if (bench.drive) bench.drive(time);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // The cruise: every frame, the view of the path at that time, given to the contender's camera.
  const viewAt = ${VIEW_AT};
  bench.cruise = null;
  // Our globe takes the vertical field of view; Aladin Lite the horizontal one, which in its
  // stereographic projection (STG, as ours) is 4·atan(tan(fovy/4)·width/height).
  const rad = Math.PI / 180;
  const cameras = {
    ours: (view) => window.galaxyCruiseGlobe.globe.setCamera({ theta: (90 - view.dec) * rad, phi: view.ra * rad, fovy: view.fov * rad }),
    aladin: (view) => {
      window.aladin.gotoRaDec(view.ra, view.dec);
      window.aladin.setFoV((4 * Math.atan(Math.tan((view.fov * rad) / 4) * (innerWidth / innerHeight))) / rad);
    },
  };
  bench.startCruise = (path, seconds, contender) => {
    const apply = cameras[contender];
    bench.drive = (time) => {
      bench.cruise ??= { start: time, end: null };
      const elapsed = (time - bench.cruise.start) / (seconds * 1000);
      apply(viewAt(path, Math.min(1, elapsed)));
      if (elapsed >= 1) {
        bench.cruise.end = time;
        bench.drive = null;
      }
    };
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
})();`;
