// The season bench (bench/season.ts) in miniature: a few hundred answers beside a few, on
// PGlite and PostgreSQL. Every call of the table must have answered (the bench throws on any
// status but 200) and been timed on both databases.
import { describe, expect, it } from 'vitest';
import { runSeason } from '../../bench/season';

describe('the season bench', () => {
  it('fills both databases through SQL and times every call on both scales', { timeout: 600_000 }, async () => {
    const rows = await runSeason({
      databases: ['pglite', 'postgres'],
      answers: 2_000,
      volunteers: 20,
      requests: 3,
      log: () => {},
    });
    for (const database of ['pglite', 'postgres']) {
      const calls = rows.filter((row) => row.database === database).map((row) => row.call);
      expect(calls).toContain('POST /api/quests/{quest_id}/answers (new answers)');
      expect(calls).toContain('POST /api/quests/{quest_id}/answers (re-posts)');
      expect(calls).toContain('GET /api/admin/notifications');
      expect(calls).toContain('GET /api/admin/notifications/{notification_id}/preview?locale=ja');
      for (const period of ['hour', 'day', 'week', 'month'])
        expect(calls).toContain(`GET /api/courses/season2/rankings/${period}`);
      expect(calls).toContain('GET /api/session, 8 clients reloading the monthly ranking');
      expect(calls).toContain('fill through SQL (s)');
    }
    for (const row of rows) {
      expect(row.small_answers, row.call).toBeLessThanOrEqual(row.large_answers);
      expect(row.small_median_ms, row.call).toBeGreaterThan(0);
      expect(row.large_median_ms, row.call).toBeGreaterThan(0);
      expect(row.ratio).toBeCloseTo(row.large_median_ms / row.small_median_ms);
    }
    expect(rows.find((row) => row.call === 'fill through SQL (s)')).toMatchObject({
      small_answers: 2,
      large_answers: 2_000,
    });
  });
});
