// The TAN projection lives in src/core/wcs.ts, shared with the globe's survey layer.
export * from '../src/core/wcs';
