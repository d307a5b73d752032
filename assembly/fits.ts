// FITS pixel decoding (FITS Standard 4.0, §5.2 and §4.4.2.5): big-endian raw values to
// physical values, physical = BZERO + BSCALE × raw, into little-endian f32 or f64.
//
// BITPIX 8 is unsigned; 16 and 32 are two's-complement SIGNED (unsigned 16-bit data is
// stored signed with BZERO = 32768, and the formula above restores it); -32 and -64 are IEEE
// floats whose NaNs are kept. For integer data a raw value equal to BLANK becomes NaN.
//
// Byte order is swapped with one v128 swizzle per 16 bytes. Integer data, and float data
// that is scaled, is converted and scaled in f64 lanes (exact for every 32-bit integer, one
// rounding for the product and one for the sum, as `BZERO + BSCALE * raw` in f64), then
// narrowed to f32 when f32 is asked for; unscaled float32 is only byte-swapped.
// Header parsing lives in core/fits.ts; these kernels see only pointers and numbers.

// The byte reversals are written as swizzles with constant, in-range indices rather than as
// shuffles: V8 lowers these three shuffle patterns to pshuflw/pshufhw/shift/or sequences (five
// or six instructions), but a constant in-range swizzle to a single pshufb.
// @ts-ignore: decorator
@inline function swap16(v: v128): v128 {
  return i8x16.swizzle(v, i8x16(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
}
// @ts-ignore: decorator
@inline function swap32(v: v128): v128 {
  return i8x16.swizzle(v, i8x16(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}
// @ts-ignore: decorator
@inline function swap64(v: v128): v128 {
  return i8x16.swizzle(v, i8x16(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8));
}
// @ts-ignore: decorator
@inline function highHalf(v: v128): v128 {
  return i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
}

// @ts-ignore: decorator
@inline function scaled(v: v128, zero: v128, scale: v128): v128 {
  return f64x2.add(zero, f64x2.mul(scale, v));
}

/** Stores four physical values given as two f64x2 halves, as f32 or f64, at pixel index i. */
// @ts-ignore: decorator
@inline function store4(dst: usize, i: usize, lo: v128, hi: v128, wide: bool): void {
  if (wide) {
    v128.store(dst + (i << 3), lo);
    v128.store(dst + (i << 3), hi, 16);
  } else {
    const a = f32x4.demote_f64x2_zero(lo);
    const b = f32x4.demote_f64x2_zero(hi);
    v128.store(dst + (i << 2), i8x16.shuffle(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23));
  }
}

/** Four signed 32-bit raw values → physical, with BLANK → NaN when `hasBlank`. */
// @ts-ignore: decorator
@inline function integers4(
  dst: usize,
  i: usize,
  raw: v128,
  zero: v128,
  scale: v128,
  hasBlank: bool,
  blank: v128,
  wide: bool,
): void {
  let lo = scaled(f64x2.convert_low_i32x4_s(raw), zero, scale);
  let hi = scaled(f64x2.convert_low_i32x4_s(highHalf(raw)), zero, scale);
  if (hasBlank) {
    const mask = i32x4.eq(raw, blank);
    const nan = f64x2.splat(NaN);
    lo = v128.bitselect(nan, lo, i64x2.extend_low_i32x4_s(mask));
    hi = v128.bitselect(nan, hi, i64x2.extend_high_i32x4_s(mask));
  }
  store4(dst, i, lo, hi, wide);
}

/** Writes one physical value at pixel index i. */
// @ts-ignore: decorator
@inline function store1(dst: usize, i: usize, value: f64, wide: bool): void {
  if (wide) store<f64>(dst + (i << 3), value);
  else store<f32>(dst + (i << 2), <f32>value);
}

/**
 * Unscaled float data into floats of the same width is a pure byte swap of its 4-byte (or,
 * when `wide`, 8-byte) words, 64 bytes a step. Returns the bytes done: `bytes` rounded down
 * to 64. Inlined with a constant `wide`, so that the loop holds no branch and V8 keeps the
 * swizzle pattern in a register.
 */
// @ts-ignore: decorator
@inline function swapBlocks(src: usize, dst: usize, bytes: usize, wide: bool): usize {
  let at: usize = 0;
  for (; at + 64 <= bytes; at += 64) {
    const p = src + at;
    const q = dst + at;
    const a = v128.load(p);
    const b = v128.load(p, 16);
    const c = v128.load(p, 32);
    const d = v128.load(p, 48);
    v128.store(q, wide ? swap64(a) : swap32(a));
    v128.store(q, wide ? swap64(b) : swap32(b), 16);
    v128.store(q, wide ? swap64(c) : swap32(c), 32);
    v128.store(q, wide ? swap64(d) : swap32(d), 48);
  }
  return at;
}

/**
 * BITPIX 16 in f32 lanes, 8 pixels a step, used only where fitsSingleIsExact() proved them
 * equal to the f64 route. Returns how many pixels it decoded (count rounded down to 8).
 */
// @ts-ignore: decorator
@inline function singles16(
  src: usize,
  dst: usize,
  count: usize,
  bzero: f64,
  bscale: f64,
  hasBlank: bool,
  blanks: v128,
): usize {
  const zero4 = f32x4.splat(<f32>bzero);
  const scale4 = f32x4.splat(<f32>bscale);
  const nan4 = f32x4.splat(NaN);
  let i: usize = 0;
  for (; i + 8 <= count; i += 8) {
    const raw = swap16(v128.load(src + (i << 1)));
    const lo = i32x4.extend_low_i16x8_s(raw);
    const hi = i32x4.extend_high_i16x8_s(raw);
    let a = f32x4.add(zero4, f32x4.mul(scale4, f32x4.convert_i32x4_s(lo)));
    let b = f32x4.add(zero4, f32x4.mul(scale4, f32x4.convert_i32x4_s(hi)));
    if (hasBlank) {
      a = v128.bitselect(nan4, a, i32x4.eq(lo, blanks));
      b = v128.bitselect(nan4, b, i32x4.eq(hi, blanks));
    }
    v128.store(dst + (i << 2), a);
    v128.store(dst + (i << 2), b, 16);
  }
  return i;
}

/**
 * Decodes `count` pixels of BITPIX `bitpix` from big-endian bytes at `src` into `dst`
 * (f64 when `wide`, else f32; `dst` must not overlap `src` unless both are 4 or 8 bytes a
 * pixel and equal). Returns 0, or -1 for an unknown BITPIX.
 */
export function fitsDecode(
  src: usize,
  dst: usize,
  count: usize,
  bitpix: i32,
  wide: bool,
  bzero: f64,
  bscale: f64,
  hasBlank: bool,
  blank: i32,
  single: bool,
): i32 {
  const identity = bzero == 0 && bscale == 1;
  const zero = f64x2.splat(bzero);
  const scale = f64x2.splat(bscale);
  const blanks = i32x4.splat(blank);
  const nan: f64 = NaN;
  let i: usize = 0;
  if (bitpix == -32) {
    if (identity && !wide) {
      // Unscaled float32 into f32: the common case of survey images.
      for (i = swapBlocks(src, dst, count << 2, false) >> 2; i < count; i++) {
        store<u32>(dst + (i << 2), bswap<u32>(load<u32>(src + (i << 2))));
      }
      return 0;
    }
    for (; i + 4 <= count; i += 4) {
      const raw = swap32(v128.load(src + (i << 2)));
      let lo = f64x2.promote_low_f32x4(raw);
      let hi = f64x2.promote_low_f32x4(highHalf(raw));
      if (!identity) {
        lo = scaled(lo, zero, scale);
        hi = scaled(hi, zero, scale);
      }
      store4(dst, i, lo, hi, wide);
    }
    for (; i < count; i++) {
      const raw = <f64>reinterpret<f32>(bswap<u32>(load<u32>(src + (i << 2))));
      store1(dst, i, identity ? raw : bzero + bscale * raw, wide);
    }
    return 0;
  }
  if (bitpix == -64) {
    if (identity && wide) {
      // Unscaled float64 into f64.
      for (i = swapBlocks(src, dst, count << 3, true) >> 3; i < count; i++) {
        store<u64>(dst + (i << 3), bswap<u64>(load<u64>(src + (i << 3))));
      }
      return 0;
    }
    for (; i + 4 <= count; i += 4) {
      let lo = swap64(v128.load(src + (i << 3)));
      let hi = swap64(v128.load(src + (i << 3), 16));
      if (!identity) {
        lo = scaled(lo, zero, scale);
        hi = scaled(hi, zero, scale);
      }
      store4(dst, i, lo, hi, wide);
    }
    for (; i < count; i++) {
      const raw = reinterpret<f64>(bswap<u64>(load<u64>(src + (i << 3))));
      store1(dst, i, identity ? raw : bzero + bscale * raw, wide);
    }
    return 0;
  }
  if (bitpix == 16 && single && !wide) {
    // Two copies of the loop, so that neither tests hasBlank per step.
    i = hasBlank
      ? singles16(src, dst, count, bzero, bscale, true, blanks)
      : singles16(src, dst, count, bzero, bscale, false, blanks);
  }
  if (bitpix == 16) {
    for (; i + 8 <= count; i += 8) {
      const raw = swap16(v128.load(src + (i << 1)));
      integers4(dst, i, i32x4.extend_low_i16x8_s(raw), zero, scale, hasBlank, blanks, wide);
      integers4(dst, i + 4, i32x4.extend_high_i16x8_s(raw), zero, scale, hasBlank, blanks, wide);
    }
    for (; i < count; i++) {
      const raw = <i32>bswap<u16>(load<u16>(src + (i << 1))) << 16 >> 16;
      store1(dst, i, hasBlank && raw == blank ? nan : bzero + bscale * <f64>raw, wide);
    }
    return 0;
  }
  if (bitpix == 32) {
    for (; i + 4 <= count; i += 4) {
      integers4(dst, i, swap32(v128.load(src + (i << 2))), zero, scale, hasBlank, blanks, wide);
    }
    for (; i < count; i++) {
      const raw = <i32>bswap<u32>(load<u32>(src + (i << 2)));
      store1(dst, i, hasBlank && raw == blank ? nan : bzero + bscale * <f64>raw, wide);
    }
    return 0;
  }
  if (bitpix == 8) {
    for (; i + 16 <= count; i += 16) {
      const raw = v128.load(src + i);
      const low = i16x8.extend_low_i8x16_u(raw);
      const high = i16x8.extend_high_i8x16_u(raw);
      integers4(dst, i, i32x4.extend_low_i16x8_u(low), zero, scale, hasBlank, blanks, wide);
      integers4(dst, i + 4, i32x4.extend_high_i16x8_u(low), zero, scale, hasBlank, blanks, wide);
      integers4(dst, i + 8, i32x4.extend_low_i16x8_u(high), zero, scale, hasBlank, blanks, wide);
      integers4(dst, i + 12, i32x4.extend_high_i16x8_u(high), zero, scale, hasBlank, blanks, wide);
    }
    for (; i < count; i++) {
      const raw = <i32>load<u8>(src + i);
      store1(dst, i, hasBlank && raw == blank ? nan : bzero + bscale * <f64>raw, wide);
    }
    return 0;
  }
  return -1;
}

/**
 * Whether BZERO + BSCALE × raw computed in f32 lanes (convert, multiply, add, each rounded to
 * f32) equals the f64 route rounded once to f32, for every one of the 65536 int16 raw values.
 * When it does (BSCALE a power of two and a BZERO such as 32768, the usual unsigned-16 case,
 * or no scaling at all), fitsDecode may use the four-lane f32 loop for BITPIX 16.
 */
export function fitsSingleIsExact(bzero: f64, bscale: f64): bool {
  const zero = <f32>bzero;
  const scale = <f32>bscale;
  for (let raw: i32 = -32768; raw < 32768; raw++) {
    const single = zero + scale * <f32>raw;
    const double = <f32>(bzero + bscale * <f64>raw);
    if (reinterpret<u32>(single) != reinterpret<u32>(double)) return false;
  }
  return true;
}
