// What the mypage reads (application-spec §7): the records of every course (quests and the
// answers count), the areas per course, the season2 levels and those of the course on screen
// (statuses, labels) and the campaigns, inactive ones included.
import { useQuery } from '@tanstack/react-query';
import type { LevelSummary, MyRecordsResponse } from '../../../../shared/api';
import { request } from '../../api/request';
import { useCampaigns } from '../../api/campaigns';
import { useLevels, useServerInfo } from '../../api/quests';

export function useMypageData(course: string) {
  const records = useQuery({
    queryKey: ['my_records'],
    queryFn: ({ signal }) => request<MyRecordsResponse>('get', '/api/my_records', undefined, { signal }),
  });
  const serverInfo = useServerInfo();
  const season2Levels = useLevels('season2');
  const courseLevels = useLevels(course);
  const campaigns = useCampaigns();
  const queries = [records, serverInfo, season2Levels, courseLevels, campaigns];
  return {
    records: records.data,
    serverInfo: serverInfo.data,
    season2Levels: season2Levels.data as LevelSummary[] | undefined,
    courseLevels: courseLevels.data as LevelSummary[] | undefined,
    campaigns: campaigns.data,
    /** When the campaigns were fetched: the time their status is judged at. */
    campaignsAt: campaigns.dataUpdatedAt,
    isPending: queries.some((query) => query.isPending),
    isError: queries.some((query) => query.isError),
    refetch: () => Promise.all(queries.filter((query) => query.isError).map((query) => query.refetch())),
  };
}
