// The decoded files of the tiled layers (src/globe/tiles/decoded-files.ts), with a decode the
// test settles by hand.
import { describe, expect, it } from 'vitest';
import { DecodedFiles } from '../../src/globe/tiles/decoded-files';

function manualDecode() {
  const jobs: { urls: string[]; settle(ok: boolean): void }[] = [];
  const decode = (urls: string[]) => {
    let settle!: (ok: boolean) => void;
    const job = new Promise<string[]>((resolve, reject) => {
      settle = (ok) => (ok ? resolve(urls.map((url) => `decoded ${url}`)) : reject(new Error('404')));
    });
    jobs.push({ urls, settle });
    return urls.map((_, index) => job.then((files) => files[index]));
  };
  return { decode, jobs };
}

const signal = new AbortController().signal;

describe('decoded files (one cache per layer, keyed by URL)', () => {
  it('decodes the files not cached together, and shares the cached ones', async () => {
    const { decode, jobs } = manualDecode();
    const files = new DecodedFiles(10, decode);
    const first = files.get(['g', 'r'], signal);
    const second = files.get(['g', 'r', 'i'], signal);
    expect(jobs.map((job) => job.urls)).toEqual([['g', 'r'], ['i']]);
    jobs.forEach((job) => job.settle(true));
    expect(await Promise.all(first)).toEqual(['decoded g', 'decoded r']);
    expect(await Promise.all(second)).toEqual(['decoded g', 'decoded r', 'decoded i']);
  });

  it('forgets a file whose fetch or decode failed, so that the next request fetches it again', async () => {
    const { decode, jobs } = manualDecode();
    const files = new DecodedFiles(10, decode);
    const [failing] = files.get(['g'], signal);
    jobs[0].settle(false);
    await expect(failing).rejects.toThrow('404');
    expect(files.size).toBe(0);
    files.get(['g'], signal);
    expect(jobs.map((job) => job.urls)).toEqual([['g'], ['g']]);
  });

  it('keeps at most its capacity, releasing what it evicts, and never evicts a file it is asked for', async () => {
    const { decode, jobs } = manualDecode();
    const released: string[] = [];
    const files = new DecodedFiles(2, decode, (file: string) => released.push(file));
    files.get(['a'], signal);
    files.get(['b'], signal);
    jobs.forEach((job) => job.settle(true));
    // a is the least recently used: asked for with a new file, it stays and b goes.
    const both = files.get(['a', 'c'], signal);
    jobs[2].settle(true);
    expect(await Promise.all(both)).toEqual(['decoded a', 'decoded c']);
    expect(released).toEqual(['decoded b']);
  });
});
