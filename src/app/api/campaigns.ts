// The campaigns (GET /api/campaigns, application-spec §7, §9): every campaign with its community
// count, inactive ones included, refreshed every second while the header shows their progress.
import { useQuery } from '@tanstack/react-query';
import type { CampaignEntry } from '../../../shared/api';
import { request } from './request';

/** §9: the campaign list is refreshed every second. */
export const CAMPAIGN_REFRESH_MS = 1000;

export function useCampaigns({ poll = false } = {}) {
  return useQuery({
    queryKey: ['campaigns'],
    queryFn: ({ signal }) => request<CampaignEntry[]>('get', '/api/campaigns', undefined, { signal, background: poll }),
    refetchInterval: poll ? CAMPAIGN_REFRESH_MS : false,
  });
}

export type CampaignStatus = 'active' | 'ended' | 'upcoming';

export function campaignStatus(entry: CampaignEntry, now: number): CampaignStatus {
  if (now < Date.parse(entry.meta.period_begin)) return 'upcoming';
  if (now > Date.parse(entry.meta.period_end)) return 'ended';
  return 'active';
}

/**
 * The progress of a campaign towards its next medal: the medal counts ascending, the next one
 * not yet reached (the last when all are), and the count's share of it, 0 to 1.
 */
export function campaignProgress(entry: CampaignEntry): { target: number; share: number; reached: number } {
  const counts = entry.meta.medals.map((medal) => medal.count).sort((a, b) => a - b);
  const reached = counts.filter((count) => entry.count >= count).length;
  const target = counts.find((count) => entry.count < count) ?? counts.at(-1) ?? 0;
  return { target, share: target > 0 ? Math.min(1, entry.count / target) : 0, reached };
}
