// The wasm core owns no managed objects: every codec works on raw linear memory.
// Static tables live in data segments below __heap_base; everything above it is one
// scratch region that core/wasm.ts lays out per call. It only ever grows, so a
// steady stream of tiles reuses the same pages instead of growing memory per tile.

/** Ensures `bytes` of scratch space exist and returns its 16-byte-aligned start. */
export function scratch(bytes: usize): usize {
  const base = (__heap_base + 15) & ~(<usize>15);
  const needed = base + bytes;
  const have = (<usize>memory.size()) << 16;
  if (needed > have) {
    const pages = <i32>((needed - have + 0xffff) >>> 16);
    if (memory.grow(pages) < 0) unreachable();
  }
  return base;
}
