// The answers the server accepted, as a page's responses show them: per object, how many POSTs
// of /api/quests/{id}/answers were answered OK (an answer queued offline and sent twice would
// count 2).
import type { Page } from '@playwright/test';

export function recordAcceptedAnswers(page: Page): Map<number, number> {
  const accepted = new Map<number, number>();
  page.on('response', (response) => {
    if (!/\/api\/quests\/\d+\/answers$/.test(new URL(response.url()).pathname) || !response.ok()) return;
    const objectId = (JSON.parse(response.request().postData() ?? '{}') as { object_id: number }).object_id;
    accepted.set(objectId, (accepted.get(objectId) ?? 0) + 1);
  });
  return accepted;
}
