// The cruise suite's row and the table that shows it, with its targets (CRUISE_TARGETS) and
// whether each holds, and where login → target and submit → sharp went.
import { GLOBE_CONTENDERS } from './globe';
import { formatColumns } from './harness';

/** The heap is compared between this answer and the last; the target limits its growth. */
export const HEAP_BASELINE_ANSWERS = 50;
export const CRUISE_TARGETS = {
  loginRatio: 0.8,
  /** submit → sharp at most the jump's duration plus this, ms (issue 31). */
  sharpAfterJumpMs: 300,
  /** Our median frame during the answers at most this times Aladin Lite's over the same jumps. */
  frameRatio: 0.5,
  heapGrowth: 0.2,
};

export interface CruiseRow {
  suite: 'cruise';
  runs: number;
  throttle: number;
  /** Medians over the runs, ms; null when a view never became quiet. */
  loginToTargetMs: number | null;
  aladinFirstViewMs: number | null;
  /**
   * Where login → first target went, medians over the runs of ms from the click: the login's POST
   * answered, the quest answered, the first survey tile asked for, the last tile in before sharp.
   */
  loginBreakdown: {
    sessionMs: number | null;
    questMs: number | null;
    /** The captain's unread message on screen; the answer form up once it is OK'd. */
    messageMs: number | null;
    formMs: number | null;
    /** The camera's first jump after the login: its first and last frame on the move. */
    jumpStartMs: number | null;
    jumpEndMs: number | null;
    firstTileMs: number | null;
    lastTileMs: number | null;
  };
  answers: number;
  /** Median and p95 over the answers of submit → quiet, ms. */
  submitToNextMs: number | null;
  submitToNextP95Ms: number | null;
  /** Median and p95 of submit → next target sharp, and the median jump as drawn, ms. */
  submitToSharpMs: number | null;
  submitToSharpP95Ms: number | null;
  jumpMs: number | null;
  /**
   * Where submit → sharp went, medians over the answers of ms from the key: the jump asked for
   * (jumpTo), its first move, the answer's POST answered, the last tile arrived before sharp.
   */
  breakdown: {
    jumpAskedMs: number | null;
    jumpStartMs: number | null;
    answerPostMs: number | null;
    lastTileMs: number | null;
  };
  /** Median frame during the answers' jumps (ours) and during Aladin Lite's flights of the same jumps, ms. */
  medianFrameMs: number | null;
  aladinMedianFrameMs: number | null;
  aladinJumps: number;
  answersPerMinute: number;
  heapBaselineBytes: number;
  heapEndBytes: number;
}

export function formatCruiseTable(rows: CruiseRow[]): string {
  const ms = (value: number | null) => (value === null ? '—' : `${value.toFixed(0)} ms`);
  const mB = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const header = ['suite', 'runs', 'CPU', 'login → target', 'Aladin first view', 'answers', 'submit → quiet'];
  header.push('p95', 'submit → sharp', 'p95', 'jump', 'frame median', 'Aladin frame median');
  header.push('answers/min', `heap @${HEAP_BASELINE_ANSWERS}`, 'heap @end', 'growth');
  const growth = (row: CruiseRow) => row.heapEndBytes / row.heapBaselineBytes - 1;
  const lines = rows.map((row) => [
    row.suite,
    String(row.runs),
    `${row.throttle}×`,
    ms(row.loginToTargetMs),
    ms(row.aladinFirstViewMs),
    String(row.answers),
    ms(row.submitToNextMs),
    ms(row.submitToNextP95Ms),
    ms(row.submitToSharpMs),
    ms(row.submitToSharpP95Ms),
    ms(row.jumpMs),
    ms(row.medianFrameMs),
    ms(row.aladinMedianFrameMs),
    row.answersPerMinute.toFixed(1),
    mB(row.heapBaselineBytes),
    mB(row.heapEndBytes),
    `${(growth(row) * 100).toFixed(1)} %`,
  ]);
  const verdict = (holds: boolean) => (holds ? 'holds' : 'does not hold');
  const ratioOf = (ours: number | null, theirs: number | null) =>
    ours === null || theirs === null ? null : ours / theirs;
  const times = (ratio: number | null) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);
  const targets = rows.flatMap((row) => {
    const login = ratioOf(row.loginToTargetMs, row.aladinFirstViewMs);
    const frame = ratioOf(row.medianFrameMs, row.aladinMedianFrameMs);
    const budget = row.jumpMs === null ? null : row.jumpMs + CRUISE_TARGETS.sharpAfterJumpMs;
    const { jumpAskedMs, jumpStartMs, answerPostMs, lastTileMs } = row.breakdown;
    return [
      `target: submit → next target sharp ≤ the jump + ${CRUISE_TARGETS.sharpAfterJumpMs} ms ` +
        `(${ms(row.submitToSharpMs)} against ${ms(budget)}): ` +
        verdict(row.submitToSharpMs !== null && budget !== null && row.submitToSharpMs <= budget),
      `  medians from the key: jumpTo ${ms(jumpAskedMs)}, the jump's first frame ${ms(jumpStartMs)}, ` +
        `the answer's POST answered ${ms(answerPostMs)}, ` +
        `the last tile in ${ms(lastTileMs)}, sharp ${ms(row.submitToSharpMs)}`,
      `target: login → first target ≤ ${CRUISE_TARGETS.loginRatio.toFixed(1)}× ${GLOBE_CONTENDERS.aladin}'s first view ` +
        `(${times(login)}): ${verdict(login !== null && login <= CRUISE_TARGETS.loginRatio)}`,
      `  medians from the click: the login answered ${ms(row.loginBreakdown.sessionMs)}, ` +
        `the quest answered ${ms(row.loginBreakdown.questMs)}, the captain's message on screen ` +
        `${ms(row.loginBreakdown.messageMs)} (OK'd at once), the answer form ${ms(row.loginBreakdown.formMs)}, ` +
        `the first jump ${ms(row.loginBreakdown.jumpStartMs)} to ${ms(row.loginBreakdown.jumpEndMs)}, the first survey tile asked ` +
        `${ms(row.loginBreakdown.firstTileMs)}, the last tile in ${ms(row.loginBreakdown.lastTileMs)}, ` +
        `sharp ${ms(row.loginToTargetMs)}`,
      `target: median frame during the jumps ≤ ${CRUISE_TARGETS.frameRatio}× ${GLOBE_CONTENDERS.aladin}'s ` +
        `flying the first ${row.aladinJumps} jumps (${times(frame)}): ${verdict(frame !== null && frame <= CRUISE_TARGETS.frameRatio)}`,
      `target: heap growth after the first ${HEAP_BASELINE_ANSWERS} answers ≤ ${CRUISE_TARGETS.heapGrowth * 100} % ` +
        `(${(growth(row) * 100).toFixed(1)} %): ${verdict(growth(row) <= CRUISE_TARGETS.heapGrowth)}`,
    ];
  });
  return [formatColumns(header, lines), '', ...targets].join('\n');
}
