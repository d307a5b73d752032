// TEAM NOTE (temporary, the lead removes it): every helper must read /tmp/common-brief.md NOW: shared rules (commit only your own paths with `git commit -- paths`, deadline 17:20 UTC, run only your own tests, flock /tmp/npm.lock for npm install, small str_replace edits in shared files).
// Entry point of the wasm core: re-exports every codec. See ARCHITECTURE.md for the rooms.
export { scratch } from './memory';
export { crc32 } from './crc32';
export { inflateRaw, inflateConsumed, inflateError } from './inflate';
export { fitsDecode, fitsSingleIsExact } from './fits';
