// Entry point of the wasm core: re-exports every codec, and every error code as a constant
// global (see errors.ts). See ARCHITECTURE.md for the rooms.
export { scratch } from './memory';
export * from './errors';
export { crc32 } from './crc32';
export { inflateRaw, inflateConsumed, inflateError } from './inflate';
export { fitsDecode, fitsSingleIsExact } from './fits';
export { ringsTractTotal, ringsTractsInRing, ringsIndexToAngle, ringsAngleToIndex } from './rings';
export { shiftmapOffsets, shiftmapStrays } from './shiftmap';
export { nest2loc, ang2xyf } from './healpix/face-coordinates';
export { healpixError } from './healpix/status';
export { hpAng2pix, hpPix2ang, hpVec2pix, hpPix2vec, hpConvert, hpNest2loc, hpAng2xyf } from './healpix/batch';
export { hpQueryDisc, hpNeeded, hpTotal, hpMaxPixrad, hpExpandRanges } from './healpix/query-disc';
export { WCS_TAN, WCS_SIN, WCS_CAR, wcsBlock, wcsBlockSlots, wcsPrepare, wcsLonpole, wcsLatpole } from './wcs';
export { wcsPix2sky, wcsSky2pix } from './wcs';
