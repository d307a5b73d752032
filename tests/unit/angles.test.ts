import { describe, expect, it, vi } from 'vitest';
import { formatDeclination, formatFieldOfView, formatRightAscension, parseSkyCoordinate } from '../../core/angles';
import { throttle } from '../../core/throttle';

const DEGREE = Math.PI / 180;

describe('camera indicator field of view (application-spec §2)', () => {
  it('is shown in arc-seconds below 1 arc-minute', () => {
    expect(formatFieldOfView((30 / 3600) * DEGREE)).toBe('30.0″');
    expect(formatFieldOfView((59.9 / 3600) * DEGREE)).toBe('59.9″');
  });
  it('in arc-minutes below 1 degree', () => {
    expect(formatFieldOfView((1 / 60) * DEGREE)).toBe('1.0′');
    expect(formatFieldOfView(0.5 * DEGREE)).toBe('30.0′');
  });
  it('otherwise in degrees', () => {
    expect(formatFieldOfView(1 * DEGREE)).toBe('1.0°');
    expect(formatFieldOfView(45 * DEGREE)).toBe('45.0°');
  });
});

describe('right ascension and declination text', () => {
  it('formats COSMOS (150.1163°, +2.2058°)', () => {
    expect(formatRightAscension(150.1163 * DEGREE)).toBe('10h 00m 27.9s');
    expect(formatDeclination(2.2058 * DEGREE)).toBe('+02° 12′ 21″');
    expect(formatDeclination(-5.5 * DEGREE)).toBe('−05° 30′ 00″');
  });
  it('carries rounding into the next unit', () => {
    expect(formatRightAscension(359.99999 * DEGREE)).toBe('00h 00m 00.0s');
  });
});

describe('sky coordinate parsing (viewer-spec §5)', () => {
  it('reads decimal degrees', () => {
    const { ra, dec } = parseSkyCoordinate('150.1163 2.2058');
    expect(ra / DEGREE).toBeCloseTo(150.1163, 9);
    expect(dec / DEGREE).toBeCloseTo(2.2058, 9);
  });
  it('reads sexagesimal text with hours for right ascension and normalises the minus sign', () => {
    const { ra, dec } = parseSkyCoordinate('10h00m27.9s −02°12′21″');
    expect(ra / DEGREE).toBeCloseTo(150.11625, 9);
    expect(dec / DEGREE).toBeCloseTo(-(2 + 12 / 60 + 21 / 3600), 9);
  });
  it('gives the first half to right ascension when the count is odd', () => {
    const { ra, dec } = parseSkyCoordinate('10 0 -2.5');
    expect(ra / DEGREE).toBeCloseTo(150, 9);
    expect(dec / DEGREE).toBeCloseTo(-2.5, 9);
  });
  it.each(['', '150.1', 'one two', '1 2 3 4 5 6 7', '10 20 95'])("rejects '%s' with 'invalid coord format'", (text) => {
    expect(() => parseSkyCoordinate(text)).toThrow('invalid coord format');
  });
});

describe('throttle', () => {
  it('fires at most once per interval and always delivers the last call', () => {
    vi.useFakeTimers();
    try {
      const calls: number[] = [];
      const throttled = throttle((value: number) => calls.push(value), 200);
      throttled(1);
      throttled(2);
      throttled(3);
      expect(calls).toEqual([1]);
      vi.advanceTimersByTime(199);
      expect(calls).toEqual([1]);
      vi.advanceTimersByTime(1);
      expect(calls).toEqual([1, 3]);
    } finally {
      vi.useRealTimers();
    }
  });
});
