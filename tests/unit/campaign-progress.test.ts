// The campaign bars' progress and the events' status (application-spec §2, §3 Campaign).
import { describe, expect, it } from 'vitest';
import type { CampaignEntry } from '../../shared/api';
import { campaignProgress, campaignStatus } from '../../src/app/api/campaigns';

function campaign(count: number, medals: number[]): CampaignEntry {
  return {
    meta: {
      id: 1,
      name: { en: 'Winter cruise', ja: 'ウィンタークルーズ' },
      period_begin: '2026-11-01T00:00:00+09:00',
      period_end: '2027-02-28T23:59:59+09:00',
      medals: medals.map((at, index) => ({ count: at, image: '', notch: index + 1, messages: { en: '', ja: '' } })),
    },
    count,
  };
}

describe('campaign progress: the community count against the next medal', () => {
  it('aims at the lowest medal not yet reached, whatever the medals’ order', () => {
    expect(campaignProgress(campaign(500, [5000, 1000, 20000]))).toEqual({ target: 1000, share: 0.5, reached: 0 });
    expect(campaignProgress(campaign(1000, [1000, 5000]))).toEqual({ target: 5000, share: 0.2, reached: 1 });
  });

  it('is full once every medal is won, and empty without medals', () => {
    expect(campaignProgress(campaign(30000, [1000, 20000]))).toEqual({ target: 20000, share: 1, reached: 2 });
    expect(campaignProgress(campaign(10, []))).toEqual({ target: 0, share: 0, reached: 0 });
  });
});

describe('campaign status: events with campaigns, including inactive ones', () => {
  const entry = campaign(0, []);
  it.each([
    ['2026-10-31T14:59:59Z', 'upcoming'],
    ['2026-10-31T15:00:00Z', 'active'],
    ['2027-02-28T14:59:59Z', 'active'],
    ['2027-02-28T15:00:00Z', 'ended'],
  ])('at %s the campaign is %s', (at, status) => {
    expect(campaignStatus(entry, Date.parse(at))).toBe(status);
  });
});
