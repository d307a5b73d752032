// The request helper of application-spec §7 with the alert rule of §8: {param} tokens are
// replaced from the payload, the remaining fields go as a query string for GET and as a JSON
// body otherwise, a 204 has no body, and a failure throws a RequestError carrying status,
// statusText and data. Every failure except 409 and 422 also raises the 'Please Reload.' alert;
// those two are passed silently to the caller, whose form shows the spec's message. A background
// refresh (a poll the volunteer did not ask for) raises no alert either: while the network is
// away, or in the moment after a logout, a poll every second would otherwise stack an alert a
// second; the screen keeps its last data and the next poll tries again. A GET that fails for want
// of a network is answered with what the page last saw, where it kept that (the offline start's
// calls: api/lastSeen.ts), and fails otherwise. Nor does a call that
// fails for want of a network while the browser says it is offline: the offline notice says so,
// once. A rate limit's refusal (429) is no fault a reload mends: its alert keeps §8's status and
// status text, and says in the page's language to wait and try again in place of the response's
// JSON and 'Please Reload.'.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Payload = Record<string, unknown>;

export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly data: unknown,
  ) {
    super(`${status} ${statusText}`);
    this.name = 'RequestError';
  }
}

/** Statuses a caller handles itself (application-spec §8). */
const SILENT_STATUSES = new Set([409, 422]);

let showAlert: (message: string) => void = (message) => window.alert(message);
/** Replaces window.alert (tests, or a nicer dialog later). */
export function setAlertHandler(handler: (message: string) => void): void {
  showAlert = handler;
}

// The alert's last line: the spec's 'Please Reload.', in the page's language (set by main.tsx).
let reloadLine = 'Please Reload.';
export function setReloadLine(text: string): void {
  reloadLine = text;
}

// The alert of a 429, in the page's language (set by main.tsx).
let tooManyRequestsText = 'Too many attempts. Please wait a few minutes and try again.';
export function setTooManyRequestsText(text: string): void {
  tooManyRequestsText = text;
}

/**
 * The answer kept for a GET whose request failed for want of a network (the offline start's
 * calls, api/lastSeen.ts), or undefined; set by main.tsx.
 */
let offlineAnswer: (url: string) => Promise<unknown> = async () => undefined;
export function setOfflineAnswer(answer: (url: string) => Promise<unknown>): void {
  offlineAnswer = answer;
}

let baseUrl = '';
/** The API base; '' means relative to the current site. */
export function setBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, '');
}

export function alertText(error: RequestError): string {
  if (error.status === 429) return `${error.status} ${error.statusText}\n${tooManyRequestsText}`;
  return `${error.status} ${error.statusText}\n${JSON.stringify(error.data)}\n${reloadLine}`;
}

/** Substitutes {name} tokens from `payload` and returns the path and the unused fields. */
export function fillPath(path: string, payload: Payload = {}): { path: string; rest: Payload } {
  const rest: Payload = { ...payload };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in rest)) throw new Error(`missing path parameter ${name} for ${path}`);
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  return { path: filled, rest };
}

function queryString(fields: Payload): string {
  const parameters = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) parameters.append(key, String(item));
    else parameters.append(key, String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}

/** The URL of a GET of `path` with `payload`, as request() sends it: {param}s filled, the rest as its query string. */
export function getUrl(path: string, payload?: Payload): string {
  const { path: filled, rest } = fillPath(path, payload);
  return `${baseUrl}${filled}${queryString(rest)}`;
}

/**
 * A request that failed because the browser is offline: the offline notice says so already
 * (features/offline), and a 'Please Reload.' alert per call would stack while it lasts.
 */
function offline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export async function request<T = unknown>(
  method: Method,
  path: string,
  payload?: Payload,
  init: { signal?: AbortSignal; background?: boolean } = {},
): Promise<T> {
  const { path: filled, rest } = fillPath(path, payload);
  const isGet = method === 'get';
  const url = isGet ? getUrl(path, payload) : `${baseUrl}${filled}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      headers: { Accept: 'application/json', ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      body: isGet ? undefined : JSON.stringify(rest),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (cause) {
    if (init.signal?.aborted) throw cause;
    if (isGet) {
      const kept = await offlineAnswer(url).catch(() => undefined);
      if (kept !== undefined) return kept as T;
    }
    const error = new RequestError(0, 'Network Error', {
      message: cause instanceof Error ? cause.message : String(cause),
    });
    if (!init.background && !offline()) showAlert(alertText(error));
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy's HTML error page, say): keep the text as the data.
  }
  if (!response.ok) {
    const error = new RequestError(response.status, response.statusText, data);
    if (!SILENT_STATUSES.has(response.status) && !init.background) showAlert(alertText(error));
    throw error;
  }
  return data as T;
}
