// What the souvenirs screen reads: the souvenirs' names, descriptions, links and images from the
// sky data (souvenirs/index.json, written by skydata/rewards.ts) and the volunteer's answers per
// course (GET /api/my_records), from which the pieces are counted (jigsaw.ts).
import { useQuery } from '@tanstack/react-query';
import type { Souvenir } from '../../../../shared/catalogue';
import { SOUVENIR_INDEX } from '../../../../shared/rewards';
import { skyDataUrl } from '../../api/dataRepository';
import { myRecordsQuery } from '../../api/records';
import { piecesOf } from './jigsaw';

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
