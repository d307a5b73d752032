// The TAN projection lives in core/wcs.ts, shared with the globe's survey layer.
export * from '../core/wcs';
