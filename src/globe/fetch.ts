// The one way the globe's layers fetch files of the data repository: abortable, and a response
// that is not OK becomes an Error naming the file and its status (what the layers log).

/** The response of `url`; throws `{url}: {status} {statusText}` unless it is OK. */
export async function fetchOk(url: string, signal: AbortSignal): Promise<Response> {
  const response = await fetch(url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response;
}

/** The bytes of `url` (fetchOk), for transferring to the worker pool. */
export async function fetchBytes(url: string, signal: AbortSignal): Promise<Uint8Array> {
  return new Uint8Array(await (await fetchOk(url, signal)).arrayBuffer());
}
