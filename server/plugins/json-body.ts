// What a request body may cost before any schema check, rate limit or session check has looked
// at it: a size limit (Fastify's bodyLimit) and a nesting limit checked in one linear pass over
// the text before JSON.parse runs. Within a size limit alone, deep nesting is the expensive
// shape: half a million nested arrays fit in 1 MiB, and JSON.parse builds every one of them.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';

/** Every body the API takes but the notification editor's: an e-mail, a nickname, a questionnaire. */
export const BODY_LIMIT = 16 * 1024;

/** The administrator's notification editor: a title and a message in each locale, HTML allowed. */
export const NOTIFICATION_BODY_LIMIT = 1024 * 1024;

/** Arrays and objects inside one another: far more than any body the API defines. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the JSON text opens more than `maxDepth` arrays and objects inside one another.
 * Brackets inside strings do not count: a string is skipped to its closing quote, the first one
 * after an even run of backslashes (RFC 8259 §7). Stops at the first bracket too deep. Text that
 * is not JSON gets some answer here and its syntax error from JSON.parse.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
      if (index < 0) return false;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes the string opened at `open`, or -1 when none does. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote >= 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}

/**
 * Replaces Fastify's application/json parser with the same parser (secure-json-parse, which
 * refuses __proto__ and constructor.prototype) behind the nesting check. The size limit is the
 * app's `bodyLimit` (BODY_LIMIT, server/app.ts) or a route's own.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new HttpError(
          400,
          `Request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects.`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
