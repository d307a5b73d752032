// One source of whole-sky light per zoom (issue 31). The whole-sky HiPS and the Milky Way cube
// are two renderings of the same sky (the Milky Way and its stars), so drawn together, each by
// additive blending, they light the band twice and blow it out to white. Each frame the globe
// hands the sky's light out among the backdrop layers: the finest first, as much as it can
// show at this zoom (its coverage: 0 before it has loaded, falling to 0 where its texels grow
// larger than a screen pixel or two), the next finest the rest, and so on. A coarser layer thus
// fills in only while a finer one loads or where it has faded out, never on top of it.
import type { FrameContext, Layer } from './layers/layer';

export type { Backdrop } from './layers/layer';

export interface BackdropOffer<Key> {
  key: Key;
  texelAngle: number | null;
  coverage: number;
}

/** Each backdrop's share of the sky's light, finest first, the shares adding up to at most 1. */
export function shareBackdrops<Key>(offers: readonly BackdropOffer<Key>[]): Map<Key, number> {
  const shares = new Map<Key, number>();
  let left = 1;
  const finestFirst = [...offers].sort((a, b) => (a.texelAngle ?? Infinity) - (b.texelAngle ?? Infinity));
  for (const offer of finestFirst) {
    const share = Math.max(0, Math.min(left, offer.coverage));
    shares.set(offer.key, share);
    left -= share;
  }
  return shares;
}

/** The shares of a frame's visible backdrop layers. */
export function frameBackdrops(layers: readonly Layer[], frame: FrameContext): Map<Layer, number> {
  return shareBackdrops(
    layers.flatMap((layer) =>
      layer.backdrop
        ? [{ key: layer, texelAngle: layer.backdrop.texelAngle(), coverage: layer.backdrop.coverage(frame) }]
        : [],
    ),
  );
}
