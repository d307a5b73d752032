// The reason the last HEALPix call failed (a code of assembly/errors.ts, HP_OK when it did
// not), shared by the batched entry points and query_disc.

let errorCode: i32 = 0;

/** Records the outcome of the running call. */
// @ts-ignore: decorator
@inline export function setError(code: i32): void {
  errorCode = code;
}

/** The reason the last call failed, HP_OK (0) when it did not. */
export function healpixError(): i32 {
  return errorCode;
}
