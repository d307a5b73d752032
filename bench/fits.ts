// FITS pixel decoding: the wasm core, writing into a Float32Array the caller keeps, against
// memcpy (TypedArray.set: the floor, no byte swap), Buffer.swap32/swap16 (native swap then a
// JavaScript scaling loop where scaling is needed), a plain DataView decoder, and the per-pixel
// kernel of the npm package fitsjs (Image.prototype._getFrame, called as it is; it swaps the
// buffer it is given in place, so each of its runs includes the copy it needs of the frame).
// Inputs: FITS files written here with a minimal header (generated sky-like images).
import { createRequire } from 'node:module';
import { decodeFits, readFitsHdus } from '../core/fits';
import type { Core, FitsPixelLayout } from '../core/wasm';
import type { BenchCase } from './harness';
import { skyImage } from './inflate';

type GetFrame = (buffer: ArrayBuffer, bitpix: number, bzero: number, bscale: number) => Float32Array | Int16Array;
const fitsjs = createRequire(import.meta.url)('fitsjs') as {
  astro: { FITS: { Image: { prototype: { _getFrame: GetFrame } } } };
};
const fitsjsGetFrame = fitsjs.astro.FITS.Image.prototype._getFrame;

/** A one-HDU FITS file (FITS Standard 4.0 §4: 80-character cards, 2880-byte blocks). */
function fitsFile(bitpix: -32 | 16, width: number, height: number, bzero: number, bscale: number): Uint8Array {
  const cards = [
    'SIMPLE  =                    T',
    `BITPIX  = ${String(bitpix).padStart(20)}`,
    'NAXIS   =                    2',
    `NAXIS1  = ${String(width).padStart(20)}`,
    `NAXIS2  = ${String(height).padStart(20)}`,
    ...(bitpix > 0 ? [`BZERO   = ${String(bzero).padStart(20)}`, `BSCALE  = ${String(bscale).padStart(20)}`] : []),
    'END',
  ];
  const header = cards.map((card) => card.padEnd(80)).join('');
  const headerBytes = Math.ceil(header.length / 2880) * 2880;
  const size = Math.abs(bitpix) / 8;
  const dataBytes = Math.ceil((width * height * size) / 2880) * 2880;
  const bytes = new Uint8Array(headerBytes + dataBytes);
  bytes.set(Buffer.from(header.padEnd(headerBytes), 'ascii'));
  const view = new DataView(bytes.buffer, headerBytes);
  const image = skyImage(width, height);
  for (let i = 0; i < image.length; i++) {
    if (bitpix === -32) view.setFloat32(i * 4, image[i]);
    else view.setInt16(i * 2, Math.round((image[i] - bzero) / bscale));
  }
  return bytes;
}

function close(a: unknown, b: unknown, peer: string): void {
  const x = a as ArrayLike<number>;
  const y = b as ArrayLike<number>;
  if (x.length !== y.length) throw new Error(`FITS output length differs from ${peer}`);
  for (let i = 0; i < x.length; i += 997) {
    if (Math.fround(x[i]) !== Math.fround(y[i]))
      throw new Error(`FITS pixel ${i} differs from ${peer}: ${x[i]} vs ${y[i]}`);
  }
}

export function fitsCases(core: Core): BenchCase[] {
  const cases: BenchCase[] = [];
  const inputs = [
    { bitpix: -32 as const, width: 2048, height: 2048, bzero: 0, bscale: 1 },
    { bitpix: -32 as const, width: 256, height: 256, bzero: 0, bscale: 1 },
    { bitpix: 16 as const, width: 2048, height: 2048, bzero: 32768, bscale: 0.0625 },
    { bitpix: 16 as const, width: 256, height: 256, bzero: 32768, bscale: 0.0625 },
  ];
  for (const input of inputs) {
    const file = fitsFile(input.bitpix, input.width, input.height, input.bzero, input.bscale);
    const [hdu] = readFitsHdus(file);
    const count = input.width * input.height;
    const layout: FitsPixelLayout = {
      offset: hdu.dataOffset,
      count,
      bitpix: input.bitpix,
      bzero: input.bzero,
      bscale: input.bscale,
    };
    const byteLength = count * (Math.abs(input.bitpix) / 8);
    const data = file.subarray(hdu.dataOffset, hdu.dataOffset + byteLength);
    const frame = (file.buffer as ArrayBuffer).slice(hdu.dataOffset, hdu.dataOffset + byteLength);
    const out = new Float32Array(count);
    const peerOut = new Float32Array(count); // peers write elsewhere so the check compares two results
    const scratch = Buffer.alloc(byteLength);
    const view = new DataView(file.buffer, hdu.dataOffset, byteLength);
    const float32 = input.bitpix === -32;
    const { bzero, bscale } = input;
    const peers = [
      {
        name: 'memcpy (TypedArray.set, no swap)',
        run: () => {
          if (float32) peerOut.set(new Float32Array(file.buffer, hdu.dataOffset, count));
          else peerOut.set(new Int16Array(file.buffer, hdu.dataOffset, count));
          return undefined;
        },
      },
      {
        name: float32 ? 'Buffer.swap32' : 'Buffer.swap16 + JS scale',
        run: () => {
          scratch.set(data);
          if (float32) {
            scratch.swap32();
            return new Float32Array(scratch.buffer, scratch.byteOffset, count);
          }
          scratch.swap16();
          const raw = new Int16Array(scratch.buffer, scratch.byteOffset, count);
          for (let i = 0; i < count; i++) peerOut[i] = bzero + bscale * raw[i];
          return peerOut;
        },
      },
      {
        name: 'plain DataView decoder',
        run: () => {
          if (float32) for (let i = 0; i < count; i++) peerOut[i] = view.getFloat32(i * 4);
          else for (let i = 0; i < count; i++) peerOut[i] = bzero + bscale * view.getInt16(i * 2);
          return peerOut;
        },
      },
      {
        name: 'fitsjs _getFrame (+ frame copy)',
        run: () => fitsjsGetFrame(frame.slice(0), input.bitpix, bzero, bscale),
      },
    ];
    cases.push({
      suite: 'fits',
      input: `${float32 ? 'float32' : `int16 BZERO ${bzero} BSCALE ${bscale}`} ${input.width}x${input.height} (${(file.length / 2 ** 20).toFixed(2)} MiB)`,
      units: float32 ? byteLength : count,
      unit: float32 ? 'B' : 'px',
      ours: {
        name: "ours (wasm) into caller's Float32Array",
        run: () => {
          core.decodeFitsPixels(file, layout, out);
          return out;
        },
      },
      peers,
      check(ours, peer, peerName) {
        if (peer === undefined) return; // memcpy decodes nothing
        close(Float32Array.from(ours as Float32Array), peer, peerName);
      },
    });
    // The whole path once, header parsing included, must give what the kernel gives.
    close(decodeFits(file, core).pixels, decodeFits(file, core, { out: new Float32Array(count) }).pixels, 'decodeFits');
  }
  return cases;
}
