// HEALPix: the wasm core's batched ang2pix and pix2ang (nest and ring, nside 2^10 and 2^20,
// 2^20 points, one call for the whole batch) and inclusive query_disc (r = 1°, nside 1024)
// against @hscmap/healpix, a JavaScript port called point by point, on the same inputs.
//
// Results are compared before timing. @hscmap/healpix computes in 32-bit integer arithmetic
// and gives wrong pixels above nside 2^15, so at nside 2^20 its disagreements are counted and
// reported rather than treated as a failure; at 2^10 any disagreement fails the bench.
import * as hscmap from '@hscmap/healpix';
import { Healpix } from '../core/healpix';
import type { Core } from '../core/wasm';
import type { BenchCase } from './harness';

const POINTS = 1 << 20;
const DISC_CALLS = 64;
const RADIUS = Math.PI / 180;

/** Uniform random directions on the sphere (xorshift, fixed seed: the same inputs every run). */
function directions(count: number, seed: number): { theta: Float64Array; phi: Float64Array } {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const theta = new Float64Array(count);
  const phi = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    theta[i] = Math.acos(1 - 2 * next());
    phi[i] = 2 * Math.PI * next();
  }
  return { theta, phi };
}

function compareIds(order: number, ours: Float64Array, peer: Float64Array, peerName: string): void {
  let differ = 0;
  for (let i = 0; i < ours.length; i++) if (ours[i] !== peer[i]) differ++;
  if (differ === 0) return;
  if (order > 15) {
    process.stderr.write(`bench healpix: ${peerName} differs on ${differ} of ${ours.length} ids at nside 2^${order}\n`);
    return;
  }
  throw new Error(`${peerName} differs from ours on ${differ} of ${ours.length} ids at nside 2^${order}`);
}

function compareAngles(order: number, ours: Float64Array[], peer: Float64Array[], peerName: string): void {
  let differ = 0;
  for (let i = 0; i < ours[0].length; i++) {
    const dt = Math.abs(ours[0][i] - peer[0][i]);
    let dp = Math.abs(ours[1][i] - peer[1][i]);
    dp = Math.min(dp, 2 * Math.PI - dp) * Math.sin(ours[0][i]);
    if (!(dt < 1e-9 && dp < 1e-9)) differ++;
  }
  if (differ === 0) return;
  if (order > 15) {
    process.stderr.write(
      `bench healpix: ${peerName} differs on ${differ} of ${ours[0].length} centres at nside 2^${order}\n`,
    );
    return;
  }
  throw new Error(`${peerName} differs from ours on ${differ} of ${ours[0].length} centres at nside 2^${order}`);
}

/**
 * Runs `run` with console.assert silenced: @hscmap/healpix asserts inside its loops and, above
 * nside 2^15, logs "Assertion failed" for most points, which would time the terminal, not it.
 */
function quiet<T>(run: () => T): T {
  const assert = console.assert;
  console.assert = () => {};
  try {
    return run();
  } finally {
    console.assert = assert;
  }
}

export function healpixCases(core: Core): BenchCase[] {
  const cases: BenchCase[] = [];
  const { theta, phi } = directions(POINTS, 0x1badf00d);
  for (const order of [10, 20]) {
    const nside = 2 ** order;
    for (const scheme of ['nest', 'ring'] as const) {
      const hp = new Healpix(core, nside, scheme);
      const peerAng2pix = scheme === 'nest' ? hscmap.ang2pix_nest : hscmap.ang2pix_ring;
      const peerPix2ang = scheme === 'nest' ? hscmap.pix2ang_nest : hscmap.pix2ang_ring;
      const oursIds = new Float64Array(POINTS);
      const peerIds = new Float64Array(POINTS);
      const note = order > 15 ? ' (@hscmap wrong above 2^15: differences counted, not checked)' : '';
      cases.push({
        suite: 'healpix',
        input: `ang2pix ${scheme}, nside 2^${order}, ${POINTS} points${note}`,
        units: POINTS,
        unit: 'pt',
        ours: { name: 'ours (wasm, batched)', run: () => hp.ang2pixBatch(theta, phi, oursIds) },
        peers: [
          {
            name: '@hscmap/healpix',
            run: () =>
              quiet(() => {
                for (let i = 0; i < POINTS; i++) peerIds[i] = peerAng2pix(nside, theta[i], phi[i]);
                return peerIds;
              }),
          },
        ],
        check: (ours, peer, peerName) => compareIds(order, ours as Float64Array, peer as Float64Array, peerName),
      });
      // pix2ang of the ids the points fall in (a realistic mix of rings and faces).
      const ids = hp.ang2pixBatch(theta, phi) as Float64Array;
      const oursTheta = new Float64Array(POINTS);
      const oursPhi = new Float64Array(POINTS);
      const peerTheta = new Float64Array(POINTS);
      const peerPhi = new Float64Array(POINTS);
      cases.push({
        suite: 'healpix',
        input: `pix2ang ${scheme}, nside 2^${order}, ${POINTS} ids${note}`,
        units: POINTS,
        unit: 'pt',
        ours: {
          name: 'ours (wasm, batched)',
          run: () => {
            hp.pix2angBatch(ids, oursTheta, oursPhi);
            return [oursTheta, oursPhi];
          },
        },
        peers: [
          {
            name: '@hscmap/healpix',
            run: () =>
              quiet(() => {
                for (let i = 0; i < POINTS; i++) {
                  const angle = peerPix2ang(nside, ids[i]);
                  peerTheta[i] = angle.theta;
                  peerPhi[i] = angle.phi;
                }
                return [peerTheta, peerPhi];
              }),
          },
        ],
        check: (ours, peer, peerName) => compareAngles(order, ours as Float64Array[], peer as Float64Array[], peerName),
      });
    }
  }

  // Inclusive query_disc, r = 1°, nside 1024, 64 centres a run: ours in the ring scheme (the
  // CLI's) with healpy's default fact = 4 and HEALPix C++'s default fact = 1, and in the nested
  // scheme with fact = 4; @hscmap tests pixel centres against r + max_pixrad (its ring variant
  // is its nested one renumbered). Both must hold every pixel whose centre is in the disc; near
  // the rim the two inclusive tests differ, and the counts are printed.
  const centres = directions(DISC_CALLS, 0x5eed1234);
  const vectors = Array.from(centres.theta, (t, i): [number, number, number] => [
    Math.sin(t) * Math.cos(centres.phi[i]),
    Math.sin(t) * Math.sin(centres.phi[i]),
    Math.cos(t),
  ]);
  for (const [scheme, fact] of [
    ['ring', 4],
    ['ring', 1],
    ['nest', 4],
  ] as const) {
    const disc = new Healpix(core, 1024, scheme);
    const peerQuery = scheme === 'nest' ? hscmap.query_disc_inclusive_nest : hscmap.query_disc_inclusive_ring;
    cases.push({
      suite: 'healpix',
      input: `query_disc inclusive ${scheme}, nside 1024, r = 1°, ${DISC_CALLS} discs (ours fact ${fact})`,
      units: DISC_CALLS,
      unit: 'call',
      ours: {
        name: 'ours (wasm)',
        run: () => {
          const results: Float64Array[] = [];
          for (let k = 0; k < DISC_CALLS; k++) {
            const found = disc.queryDisc(centres.theta[k], centres.phi[k], RADIUS, { inclusive: true, fact });
            results.push(found as Float64Array);
          }
          return results;
        },
      },
      peers: [
        {
          name: '@hscmap/healpix',
          run: () => {
            const results: number[][] = [];
            for (let k = 0; k < DISC_CALLS; k++) {
              const found: number[] = [];
              peerQuery(1024, vectors[k], RADIUS, (ipix) => found.push(ipix));
              results.push(found);
            }
            return results;
          },
        },
      ],
      check: (ours, peer, peerName) => {
        const a = ours as Float64Array[];
        const b = peer as number[][];
        let onlyOurs = 0;
        let onlyTheirs = 0;
        for (let k = 0; k < DISC_CALLS; k++) {
          const theirs = new Set(b[k]);
          const mine = new Set(a[k]);
          const inside = disc.queryDisc(centres.theta[k], centres.phi[k], RADIUS) as Float64Array;
          for (const id of inside) {
            if (!theirs.has(id) || !mine.has(id)) throw new Error(`disc ${k}: pixel ${id} (centre inside) missing`);
          }
          for (const id of mine) if (!theirs.has(id)) onlyOurs++;
          for (const id of theirs) if (!mine.has(id)) onlyTheirs++;
        }
        process.stderr.write(
          `bench healpix: query_disc ${scheme} fact ${fact} rims: ${onlyOurs} pixels only in ours, ${onlyTheirs} only in ${peerName}\n`,
        );
      },
    });
  }
  return cases;
}
