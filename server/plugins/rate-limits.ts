// The rate limits of the account routes. A route may need several limits at once (per IP and
// per address), which @fastify/rate-limit's per-route config cannot express: each rule here is
// its own limiter from app.createRateLimit, all counted in the shared database store, and the
// route's preHandler (after the body is parsed, so an address can be a key) checks them in turn.
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { HttpError } from '../http-error';
import { hashToken } from '../auth/session-user';

export interface LimitRule {
  /** Prefix of the counter's key; one name per rule. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted; undefined skips the rule for this request. */
  key: (request: FastifyRequest) => string | undefined;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const byIp = (request: FastifyRequest) => normalizeIP(request.ip);
/** Addresses are hashed: the counter table need not hold who asked for what. */
export const byAddress = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? hashToken(email.trim().toLowerCase()) : undefined;
};
/**
 * An address together with the client's: a guesser is slowed on the addresses it tries from its
 * own IP, while the volunteer, from any other IP, still logs in (a count per address alone let
 * anyone lock any volunteer out for the window by failing ten times).
 */
export const byAddressFromIp = (request: FastifyRequest) => {
  const address = byAddress(request);
  return address === undefined ? undefined : hashToken(`${address} ${byIp(request)}`);
};
export const byUser = (request: FastifyRequest) => (request.user ? `user-${request.user.id}` : byIp(request));

/** The limits, by route (README "Accounts and mail" lists them). */
export const LIMITS = {
  login: [
    { name: 'login-ip', max: 30, windowMs: MINUTE, key: byIp },
    { name: 'login-address-ip', max: 10, windowMs: 15 * MINUTE, key: byAddressFromIp },
  ],
  // Hard: its 409 tells whether an address is registered (application-spec §7).
  signup: [
    { name: 'signup-ip', max: 5, windowMs: HOUR, key: byIp },
    { name: 'signup-address', max: 3, windowMs: HOUR, key: byAddress },
  ],
  passwordReset: [
    { name: 'reset-ip', max: 10, windowMs: HOUR, key: byIp },
    { name: 'reset-address', max: 3, windowMs: HOUR, key: byAddress },
  ],
  mailLink: [{ name: 'link-ip', max: 30, windowMs: 10 * MINUTE, key: byIp }],
  passwordChange: [{ name: 'password-user', max: 10, windowMs: 15 * MINUTE, key: byUser }],
  // The nickname dialog looks names up as the volunteer types.
  nickname: [{ name: 'nickname-user', max: 120, windowMs: MINUTE, key: byUser }],
} satisfies Record<string, LimitRule[]>;

function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * A preHandler that counts the request against every rule and answers 429 with Retry-After
 * when one is exceeded. `enabled` false (RATE_LIMITS=off) gives a hook that does nothing.
 */
export function rateLimited(app: FastifyInstance, rules: LimitRule[], enabled: boolean): preHandlerAsyncHookHandler {
  if (!enabled) return async () => {};
  const limiters = rules.map((rule) => ({
    rule,
    check: app.createRateLimit({
      max: rule.max,
      timeWindow: rule.windowMs,
      keyGenerator: (request) => `${rule.name}:${rule.key(request)}`,
    }),
  }));
  return async (request, reply) => {
    for (const { rule, check } of limiters) {
      if (rule.key(request) === undefined) continue;
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) continue;
      reply.header('retry-after', result.ttlInSeconds);
      throw new HttpError(429, `Too many requests: try again in ${waitText(result.ttlInSeconds)}.`);
    }
  };
}
