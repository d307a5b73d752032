// A small deterministic random source (mulberry32) so that a build with the same seed writes
// byte-identical files. Math.random is never used by skydata/.
export class Random {
  private state: number;
  private spare: number | null = null;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  uniform(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  int(low: number, highExclusive: number): number {
    return low + Math.floor(this.next() * (highExclusive - low));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal deviate (Marsaglia's polar method, one spare kept). */
  gaussian(): number {
    if (this.spare !== null) {
      const value = this.spare;
      this.spare = null;
      return value;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * factor;
    return u * factor;
  }

  /** A child stream, so that adding draws in one place does not shift every later one. */
  fork(label: string | number): Random {
    let hash = this.state ^ 0x9e3779b9;
    for (const char of String(label)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
    return new Random(hash >>> 0);
  }
}
