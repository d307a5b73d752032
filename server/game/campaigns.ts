// Campaigns: time windows with medals at community-wide answer counts (ARCHITECTURE.md).

export interface MedalCount {
  count: number;
}

/**
 * new_record: the answer that took the window's count from `before` to `after` crossed a medal
 * count (reached it exactly or passed it).
 */
export function crossesMedal(medals: readonly MedalCount[], before: number, after: number): boolean {
  return medals.some((medal) => before < medal.count && after >= medal.count);
}

/** Whether `at` lies in the window, both ends included (period_end is the window's last second). */
export function inWindow(period: { period_begin: Date; period_end: Date }, at: Date): boolean {
  return period.period_begin.getTime() <= at.getTime() && at.getTime() <= period.period_end.getTime();
}
