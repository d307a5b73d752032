import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFLATE_ERRORS } from '../../core/gzip';
import { coreWasmUrl, loadCore } from '../../core/wasm';

/** The constant globals the module exports: the error codes of assembly/errors.ts. */
function exportedCodes(prefix: string): Map<string, number> {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(coreWasmUrl)), {});
  const codes = new Map<string, number>();
  for (const [name, value] of Object.entries(instance.exports)) {
    if (value instanceof WebAssembly.Global && name.startsWith(prefix)) codes.set(name, value.value as number);
  }
  return codes;
}

describe('wasm error codes, defined once in assembly/errors.ts', () => {
  it('are exported by the module under their names, each family without duplicates', () => {
    for (const prefix of ['INFLATE_', 'HP_']) {
      const codes = exportedCodes(prefix);
      expect(codes.size).toBeGreaterThan(5);
      expect(new Set(codes.values()).size).toBe(codes.size);
    }
  });

  it('give every inflate failure but a full output its message, and no message lacks a code', () => {
    const names = [...exportedCodes('INFLATE_').keys()].filter((name) => name !== 'INFLATE_OUTPUT_FULL');
    expect(names.sort()).toEqual(Object.keys(DEFLATE_ERRORS).sort());
  });

  it('reach the caller as the message for the code (stored block lengths that disagree)', async () => {
    const core = await loadCore();
    // A final stored block whose LEN and NLEN are not complements (RFC 1951 §3.2.4).
    const stream = Uint8Array.of(0x01, 0x05, 0x00, 0x00, 0x00);
    expect(() => core.inflateRaw(stream)).toThrow(DEFLATE_ERRORS.INFLATE_BAD_STORED_LENGTH);
  });
});

describe('the chunk loop of the batched wrappers', () => {
  const N = 70000; // more than two HEALPix chunks and eight rings chunks

  it('gives across chunks what one point at a time gives, from arrays that start inside their buffer', async () => {
    const core = await loadCore();
    // theta and phi lie one and N + 2 values into one buffer: the copies must honour byteOffset.
    const backing = new Float64Array(2 * N + 3);
    for (let i = 0; i < backing.length; i++) backing[i] = ((i * 2654435761) % 1000003) / 1000003;
    const theta = backing.subarray(1, 1 + N).map((v) => v * Math.PI);
    backing.set(theta, 1);
    const phi = backing.subarray(2 + N, 2 + 2 * N);
    const batch = new Float64Array(N);
    core.healpixAng2pix(1024, true, backing.subarray(1, 1 + N), phi, batch);
    const one = new Float64Array(1);
    for (const i of [0, 1, 32767, 32768, 32769, 65535, 65536, N - 1]) {
      core.healpixAng2pix(1024, true, theta.subarray(i, i + 1), phi.subarray(i, i + 1), one);
      expect(batch[i]).toBe(one[0]);
    }
    const { total } = core.ringsLayout();
    const ids = new Float64Array(N + 5);
    for (let i = 0; i < N; i++) ids[5 + i] = (i * 7919) % total;
    const centres = new Float64Array(2 * N);
    expect(core.ringsIndexToAngle(ids.subarray(5), centres)).toBe(0);
    const single = new Float64Array(2);
    for (const i of [0, 8191, 8192, 8193, N - 1]) {
      core.ringsIndexToAngle(ids.subarray(5 + i, 6 + i), single);
      expect([centres[2 * i], centres[2 * i + 1]]).toEqual([single[0], single[1]]);
    }
  });

  it('stops at the first bad point with the chunks before it done', async () => {
    const core = await loadCore();
    const theta = new Float64Array(N).fill(1);
    const phi = new Float64Array(N).fill(2);
    theta[40000] = 4; // outside [0, π], in the second chunk
    const out = new Float64Array(N).fill(-1);
    expect(() => core.healpixAng2pix(64, false, theta, phi, out)).toThrow(
      'ang2pix: theta must be in [0, π] and phi finite, got theta 4, phi 2',
    );
    expect(out[32767]).toBeGreaterThanOrEqual(0);
    expect(out[N - 1]).toBe(-1);
  });
});
