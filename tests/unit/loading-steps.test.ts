// The loading status's steps (src/app/components/globe/loadingSteps.ts): each done only when its
// work is, the first one not done current, and the bar's value the steps done in order.
import { describe, expect, it } from 'vitest';
import { formatBytes, loadingProgress } from '../../src/app/components/globe/loadingSteps';

const states = (done: { session: boolean; code: boolean; globe: boolean }) =>
  loadingProgress(done).steps.map(({ state }) => state);

describe('loading progress', () => {
  it('names the step the page is at', () => {
    expect(states({ session: false, code: false, globe: false })).toEqual(['current', 'waiting', 'waiting']);
    expect(states({ session: true, code: false, globe: false })).toEqual(['done', 'current', 'waiting']);
    expect(states({ session: true, code: true, globe: false })).toEqual(['done', 'done', 'current']);
    expect(loadingProgress({ session: true, code: true, globe: true })).toMatchObject({ done: 3, total: 3 });
  });

  it('counts no step done before the steps it waits for', () => {
    expect(loadingProgress({ session: false, code: true, globe: false }).done).toBe(0);
    expect(states({ session: false, code: true, globe: false })).toEqual(['current', 'waiting', 'waiting']);
  });

  it('writes sizes as people read them', () => {
    expect(formatBytes(0, 'en')).toBe('0 kB');
    expect(formatBytes(850_000, 'en')).toBe('850 kB');
    expect(formatBytes(1_940_000, 'en')).toBe('1.9 MB');
    expect(formatBytes(12_345_678, 'ja')).toBe('12.3 MB');
  });
});
