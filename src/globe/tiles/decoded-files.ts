// The decoded files of the tiled layers whose tile is several files (a survey tile's filters, a
// pretty picture's channels): kept per URL in an LRU (viewer-spec §9: decoded image cache 400),
// so that a tile made again (its texture evicted, the colour parameters changed) is uploaded
// without fetching or decoding again. A file is cached as the promise of its decoding, so that
// two tiles asking for it at once share one fetch; a promise that rejects (a failed or aborted
// fetch or decode) leaves the cache, and the next request fetches the file again.
import type { DecoderPool } from '../../workers/pool';
import { fetchBytes } from '../fetch';
import { LruCache } from './lru';

export class DecodedFiles<F> {
  private readonly files: LruCache<string, Promise<F>>;

  /**
   * `decode` fetches and decodes `urls` (abortably by `signal`), one promise per URL in order;
   * `release` frees a decoded file that leaves the cache (an ImageBitmap's close).
   */
  constructor(
    capacity: number,
    private readonly decode: (urls: string[], signal: AbortSignal) => Promise<F>[],
    release?: (file: F) => void,
  ) {
    this.files = new LruCache(capacity, (file) => {
      if (release) file.then(release).catch(() => {});
    });
  }

  /** The decoded files of `urls`: those not cached are decoded together by one `decode`. */
  get(urls: readonly string[], signal: AbortSignal): Promise<F>[] {
    // The cached ones are marked used first, so that caching the missing ones cannot evict them.
    const files = urls.map((url) => this.files.get(url));
    const missing = [...new Set(urls.filter((_, index) => files[index] === undefined))];
    if (missing.length === 0) return files as Promise<F>[];
    const decoded = this.decode(missing, signal);
    missing.forEach((url, index) => {
      const file = decoded[index];
      this.files.set(url, file);
      urls.forEach((wanted, k) => {
        if (wanted === url) files[k] = file;
      });
      file.catch(() => {
        if (this.files.peek(url) === file) this.files.delete(url);
      });
    });
    return files as Promise<F>[];
  }

  get size(): number {
    return this.files.size;
  }

  clear(): void {
    this.files.clear();
  }
}

/**
 * Fetches `urls` (abortably) and decodes them together in one job of `decoder` (the layer's
 * pool, LayerContext.decoder): the images come back decoded, so the main thread only uploads them.
 */
export async function fetchDecodedImages(
  decoder: DecoderPool,
  urls: readonly string[],
  signal: AbortSignal,
): Promise<ImageBitmap[]> {
  const files = await Promise.all(urls.map((url) => fetchBytes(url, signal)));
  return decoder.run('decodeImages', [files], { transfer: files.map((bytes) => bytes.buffer), signal });
}
