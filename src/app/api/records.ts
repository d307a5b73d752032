// The volunteer's answers per course (GET /api/my_records): the souvenirs count their pieces
// from it, and the cruise asks again after a puzzle piece to see whether it completed a jigsaw.
import type { MyRecordsResponse } from '../../../shared/api';
import { request } from './request';

export const myRecordsQuery = {
  queryKey: ['my_records'],
  queryFn: ({ signal }: { signal?: AbortSignal }) =>
    request<MyRecordsResponse>('get', '/api/my_records', undefined, { signal }),
} as const;
