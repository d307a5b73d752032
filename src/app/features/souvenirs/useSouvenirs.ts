// What the souvenirs screen reads: the souvenirs' names, descriptions, links and images from the
// sky data (souvenirs/index.json, written by skydata/rewards.ts) and the volunteer's answers per
// course (GET /api/my_records), from which the pieces are counted (jigsaw.ts).
import { useQuery } from '@tanstack/react-query';
import type { MyRecordsResponse } from '../../../../shared/api';
import type { Souvenir } from '../../../../shared/catalogue';
import { SOUVENIR_INDEX } from '../../../../shared/rewards';
import { skyDataUrl } from '../../api/dataRepository';
import { request } from '../../api/request';
import { OBJECTS_PER_PIECE } from '../../developerMode';
import { piecesEarned } from './jigsaw';

export const myRecordsQuery = {
  queryKey: ['my_records'],
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    request<MyRecordsResponse>('get', '/api/my_records', undefined, { signal }),
} as const;

/** Pieces earned by every course's answers. */
export function piecesOf(records: MyRecordsResponse): number {
  return piecesEarned(
    Object.values(records).map((record) => record.answers_count),
    OBJECTS_PER_PIECE,
  );
}

export function useSouvenirs() {
  // A plain fetch: a static file of the data repository, not an API call (no §8 alert).
  const list = useQuery({
    queryKey: ['souvenirs'],
    queryFn: async ({ signal }) => {
      const response = await fetch(skyDataUrl(SOUVENIR_INDEX), { signal });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      return (await response.json()) as Souvenir[];
    },
    staleTime: Infinity,
  });
  const records = useQuery(myRecordsQuery);
  return {
    souvenirs: list.data,
    pieces: records.data ? piecesOf(records.data) : undefined,
    isPending: list.isPending || records.isPending,
    isError: list.isError || records.isError,
    refetch: () => Promise.all([list.refetch(), records.refetch()]),
  };
}
