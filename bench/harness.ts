// A small in-process benchmark harness: every contender runs on the same input in the same
// process, alternating rounds so that drift in machine speed hits all of them alike, and the
// median round is reported. Ratios are ours ÷ peer, so > 1 means ours is faster.

export interface Contender {
  name: string;
  run(): unknown;
}

export interface Measurement {
  suite: string;
  input: string;
  contender: string;
  /** Units per second (bytes, pixels or calls, named by `unit`). */
  throughput: number;
  unit: string;
  /** Ours ÷ this contender, in throughput; 1 for ours. */
  ratio: number;
}

export interface BenchCase {
  suite: string;
  input: string;
  /** Units processed by one run (bytes, pixels, calls). */
  units: number;
  unit: string;
  ours: Contender;
  peers: Contender[];
  /** Runs `ours` and a peer once and throws if their results differ. */
  check?(ours: unknown, peer: unknown, peerName: string): void;
}

function timeRound(contender: Contender, minimumMs: number): number {
  let runs = 0;
  const start = performance.now();
  let elapsed: number;
  do {
    contender.run();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minimumMs);
  return elapsed / runs;
}

export function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const WARM_UP_MS = 250;

export function runCase(bench: BenchCase, rounds = 7, minimumMs = 60): Measurement[] {
  const contenders = [bench.ours, ...bench.peers];
  if (bench.check) {
    const expected = bench.ours.run();
    for (const peer of bench.peers) bench.check(expected, peer.run(), peer.name);
  }
  // Warm-up long enough for V8 to tier the hot wasm and JavaScript functions up to their
  // optimised code (Liftoff and Sparkplug code runs several times slower): the first case of a
  // suite measured 20–30 % low after 30 ms.
  for (const contender of contenders) timeRound(contender, WARM_UP_MS);
  const times = new Map<Contender, number[]>(contenders.map((contender) => [contender, []]));
  for (let round = 0; round < rounds; round++) {
    for (const contender of contenders) times.get(contender)!.push(timeRound(contender, minimumMs));
  }
  const oursSeconds = median(times.get(bench.ours)!) / 1000;
  return contenders.map((contender) => {
    const seconds = median(times.get(contender)!) / 1000;
    return {
      suite: bench.suite,
      input: bench.input,
      contender: contender.name,
      throughput: bench.units / seconds,
      unit: bench.unit,
      ratio: seconds / oursSeconds,
    };
  });
}

function formatRate(value: number, unit: string): string {
  const prefixes = ['', 'k', 'M', 'G', 'T'];
  let index = 0;
  while (value >= 1000 && index < prefixes.length - 1) {
    value /= 1000;
    index++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${prefixes[index]}${unit}/s`;
}

export function formatTable(rows: Measurement[]): string {
  const header = ['suite', 'input', 'contender', 'throughput', 'ours ÷ it'];
  const lines = rows.map((row) => [
    row.suite,
    row.input,
    row.contender,
    formatRate(row.throughput, row.unit),
    row.ratio === 1 && row.contender.startsWith('ours') ? '—' : `${row.ratio.toFixed(2)}×`,
  ]);
  return formatColumns(header, lines);
}

/** A plain-text table: the header, a rule, and the lines, each column padded to its widest cell. */
export function formatColumns(header: string[], lines: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}
