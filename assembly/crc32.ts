// CRC-32 as used by gzip (RFC 1952 §8) and zlib: reflected polynomial 0xEDB88320,
// initial value and final XOR 0xFFFFFFFF. Slicing-by-8 (Intel, Kounavis & Berry 2005):
// eight 256-entry tables let the loop consume 8 bytes per iteration.

const TABLES: usize = memory.data(8 * 256 * 4, 16);
let tablesReady = false;

function buildTables(): void {
  for (let n: u32 = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    store<u32>(TABLES + (<usize>n << 2), c);
  }
  for (let n: usize = 0; n < 256; n++) {
    let c = load<u32>(TABLES + (n << 2));
    for (let t: usize = 1; t < 8; t++) {
      c = load<u32>(TABLES + ((<usize>(c & 0xff)) << 2)) ^ (c >>> 8);
      store<u32>(TABLES + (t << 10) + (n << 2), c);
    }
  }
  tablesReady = true;
}

@inline function entry(table: usize, byte: u32): u32 {
  return load<u32>(TABLES + (table << 10) + (<usize>byte << 2));
}

/**
 * Continues a CRC-32 over `length` bytes at `pointer`. `crc` is the value returned for the
 * bytes before (0 to start), so a stream can be checked in pieces.
 */
export function crc32(pointer: usize, length: usize, crc: u32): u32 {
  if (!tablesReady) buildTables();
  let c = ~crc;
  let p = pointer;
  const end = pointer + length;
  while (p + 8 <= end) {
    const lo = load<u32>(p) ^ c;
    const hi = load<u32>(p, 4);
    c =
      entry(7, lo & 0xff) ^
      entry(6, (lo >>> 8) & 0xff) ^
      entry(5, (lo >>> 16) & 0xff) ^
      entry(4, lo >>> 24) ^
      entry(3, hi & 0xff) ^
      entry(2, (hi >>> 8) & 0xff) ^
      entry(1, (hi >>> 16) & 0xff) ^
      entry(0, hi >>> 24);
    p += 8;
  }
  while (p < end) {
    c = entry(0, (c ^ load<u8>(p)) & 0xff) ^ (c >>> 8);
    p++;
  }
  return ~c;
}
