// The request target as the router reads it, before anything reads it (Fastify's rewriteUrl).
// The checks that apply to the API (Cache-Control: no-store in ./security.ts, the session lookup
// in ../auth/session-user.ts) ask whether the path starts with /api/; the router, which decides
// which route answers, decodes percent-escapes and accepts a target in absolute form. Without
// this, `/%61pi/session` and `GET http://host/api/session` reached the API routes with neither
// check. Normalising the target once here makes both read the same path.
//
// - absolute form (RFC 9112 §3.2.2: `http://host:port/path?query`, which an origin server must
//   accept though only proxies are sent it): scheme and authority are dropped, leaving the path
//   and query. The Host header is not rewritten: nothing here builds URLs from it.
// - percent-escapes of letters, digits, `-`, `_` and `~` in the path are decoded (RFC 3986
//   §6.2.2.2: they mean the same decoded). Every other escape stays as sent, `%2F` and `%2E`
//   included, so that no new `/` or dot segment appears.
import type { IncomingMessage } from 'node:http';

const SLASH = 0x2f;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const UNRESERVED_BUT_DOT = /^[A-Za-z0-9_~-]$/;

function decodeUnreserved(path: string): string {
  return path.replace(ESCAPE, (escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED_BUT_DOT.test(character) ? character : escape;
  });
}

/** The target in origin form (`/path?query`) with its path normalised as above. */
export function normalizeRequestTarget(target: string): string {
  // The common case, a plain path, costs two comparisons.
  if (target.charCodeAt(0) === SLASH && !target.includes('%')) return target;
  let originForm = target;
  const absolute = ABSOLUTE_FORM.exec(target);
  if (absolute) {
    originForm = target.slice(absolute[0].length);
    if (originForm.charCodeAt(0) !== SLASH) originForm = `/${originForm}`;
  }
  const query = originForm.search(/[?#]/);
  const path = query < 0 ? originForm : originForm.slice(0, query);
  const rest = query < 0 ? '' : originForm.slice(query);
  return decodeUnreserved(path) + rest;
}

/** Fastify's rewriteUrl option. */
export function rewriteRequestTarget(request: IncomingMessage): string {
  return normalizeRequestTarget(request.url ?? '/');
}
