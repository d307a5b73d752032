// A slow line for every page and service worker of the browser, through Chrome DevTools'
// Network.emulateNetworkConditions, as DevTools' own throttling does it (on each target: a
// service worker fetches for its pages on a target of its own, and would otherwise have the fast
// line). A dedicated worker's requests follow its page's conditions; Chromium refuses the call
// on the worker itself. Targets are found as they are made (Target.setDiscoverTargets) and
// attached to in non-flat mode through a browser session of their own, beside Playwright's.
import type { PlaywrightBrowser } from './browser';

export interface NetworkConditions {
  /** Download and upload, bits per second. */
  downloadBitsPerSecond: number;
  uploadBitsPerSecond: number;
  /** Added to every request's round trip, ms. */
  latencyMs: number;
}

/** The issue's poor connection: 1.6 Mbit/s down, 750 kbit/s up, 150 ms (DevTools' "Slow 4G" class of line). */
export const SLOW_NETWORK: NetworkConditions = {
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  latencyMs: 150,
};

const THROTTLED_TARGETS = new Set(['page', 'service_worker']);

/** Throttles every page and service worker `browser` makes from now on; resolves to the stop. */
export async function emulateNetwork(
  browser: PlaywrightBrowser,
  conditions: NetworkConditions,
): Promise<{ throttled: () => string[]; stop: () => Promise<void> }> {
  const session = await browser.newBrowserCDPSession();
  const throttled: string[] = [];
  let nextId = 1;
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  session.on('Target.receivedMessageFromTarget', ({ message }) => {
    const reply = JSON.parse(message) as { id?: number; error?: { message: string } };
    const waiting = reply.id === undefined ? undefined : pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id!);
    if (reply.error) waiting.reject(new Error(reply.error.message));
    else waiting.resolve();
  });
  const send = (sessionId: string, method: string, params: object) =>
    new Promise<void>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      session
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(reject);
    });
  session.on('Target.targetCreated', async ({ targetInfo }) => {
    if (!THROTTLED_TARGETS.has(targetInfo.type)) return;
    try {
      const { sessionId } = await session.send('Target.attachToTarget', {
        targetId: targetInfo.targetId,
        flatten: false,
      });
      await send(sessionId, 'Network.enable', {});
      await send(sessionId, 'Network.emulateNetworkConditions', {
        offline: false,
        latency: conditions.latencyMs,
        // Bytes per second.
        downloadThroughput: conditions.downloadBitsPerSecond / 8,
        uploadThroughput: conditions.uploadBitsPerSecond / 8,
      });
      throttled.push(`${targetInfo.type} ${targetInfo.url}`);
    } catch {
      // A target gone before it was throttled (a page closed at once) has nothing to slow down.
    }
  });
  await session.send('Target.setDiscoverTargets', { discover: true });
  return {
    /** The targets throttled so far, as 'type url' (the url when it was made). */
    throttled: () => [...throttled],
    stop: () => session.detach(),
  };
}
