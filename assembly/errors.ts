// The wasm core's error codes, defined here and nowhere else.
//
// A kernel that fails leaves one of these codes where the wrapper can ask for it
// (inflateError(), healpixError()) and traps or returns early. assembly/index.ts exports every
// code as an immutable wasm global under its name, and core/wasm.ts reads them by name from
// the instance when it loads the module, so the TypeScript side never restates a number:
// renumbering a code here changes both sides at once, and a code the TypeScript side names but
// the module lacks fails at load time instead of reporting the wrong message. Globals rather
// than a function that writes messages into memory: the messages are the spec's (viewer-spec
// §5) and interpolate the caller's arguments, which only the TypeScript side has; and inside
// the module a constant global folds into the code that uses it, so exporting it costs nothing.

// ---- inflate (assembly/inflate.ts): the reason inflateRaw trapped -------------------------
/** The output capacity was too small: the caller grows the output and inflates again. */
export const INFLATE_OUTPUT_FULL = 1;
export const INFLATE_TRUNCATED = 2;
export const INFLATE_BAD_BLOCK_TYPE = 3;
export const INFLATE_BAD_STORED_LENGTH = 4;
export const INFLATE_TOO_MANY_SYMBOLS = 5;
export const INFLATE_BAD_CODE_LENGTHS = 6;
export const INFLATE_BAD_REPEAT = 7;
export const INFLATE_MISSING_EOB = 8;
export const INFLATE_BAD_LITLEN_SET = 9;
export const INFLATE_BAD_DIST_SET = 10;
export const INFLATE_BAD_LITLEN_CODE = 11;
export const INFLATE_BAD_DIST_CODE = 12;
export const INFLATE_DIST_TOO_FAR = 13;
export const INFLATE_TABLE_OVERFLOW = 14;

// ---- HEALPix (assembly/healpix/): healpixError() after a batched call or query_disc -------
export const HP_OK = 0;
/** nside not a power of two in 1..2^29. */
export const HP_BAD_NSIDE = 1;
/** theta outside [0, π] or not finite, or phi not finite. */
export const HP_BAD_THETA = 2;
/** Pixel id outside [0, 12·nside²) or not an integer. */
export const HP_BAD_PIX = 3;
/** Zero or non-finite vector. */
export const HP_BAD_VECTOR = 4;
/** query_disc: radius not in [0, π/2). */
export const HP_BAD_RADIUS = 5;
/** query_disc: oversampling factor not in 1..2^29/nside (a power of two when nested). */
export const HP_BAD_FACT = 6;
/** query_disc: more ranges than the output holds (hpNeeded() tells how many). */
export const HP_OUTPUT_FULL = 7;

// ---- celestial WCS (assembly/wcs.ts): what wcsPrepare() returns -------------------------
export const WCS_OK = 0;
/** A parameter is not a finite number (or the projection code is unknown). */
export const WCS_BAD_PARAMETER = 1;
/** The linear transformation (CD, or CDELT × PC) has no inverse. */
export const WCS_SINGULAR_MATRIX = 2;
/** CRVAL, the projection's fiducial point and LONPOLE admit no celestial pole (Paper II §2.4). */
export const WCS_BAD_POLE = 3;
