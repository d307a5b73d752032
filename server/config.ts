// Server configuration from the environment (ARCHITECTURE.md, "Configuration"); every variable
// is optional and the defaults make `npm start` work on a fresh machine.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from '@fastify/proxy-addr';

export interface ServerConfig {
  port: number;
  host: string;
  /** Unset: embedded PGlite under `varDirectory/db`. */
  databaseUrl: string | undefined;
  /** NAMED_STATEMENTS=off: PostgreSQL queries go unnamed (server/db/named-statements.ts). */
  namedStatements: boolean;
  /** Unset: sky data served by this server from `varDirectory/sky`. */
  dataHost: string | undefined;
  smtpUrl: string | undefined;
  adminEmails: string[];
  /** Runtime state: db/, outbox/, sky/ (git-ignored). */
  varDirectory: string;
  /** The built client (vite build). */
  distDirectory: string;
  /** IANA time zone of the ranking periods (TIME_ZONE, default Asia/Tokyo). */
  timeZone: string;
  /** The present202501 gift campaign: applications are accepted from opensAt to deadline, inclusive. */
  present: { opensAt: Date; deadline: Date; minGalaxies: number };
  /** The site as volunteers reach it, no trailing slash: mail links and the Origin check (PUBLIC_URL). */
  publicUrl: string;
  /**
   * Every origin the Origin check lets through: PUBLIC_URL's, those of ALLOWED_ORIGINS and, with
   * PUBLIC_URL unset, the loopback names of PORT (localhost, 127.0.0.1, [::1]).
   */
  allowedOrigins: string[];
  /** Sender of sign-up and reset mail (MAIL_FROM). */
  mailFrom: string;
  /** Fastify's trustProxy (TRUST_PROXY, parseTrustProxy): which peers' X-Forwarded-* to believe. */
  trustProxy: TrustProxy | false;
  /** RATE_LIMITS=off turns the per-IP/per-address limits off (loopback load runs only). */
  rateLimits: boolean;
  /**
   * SCIENCE=off stops the serving process's background science (docs/science.md): answers are
   * then summed only when an administrator reads the dashboard or an export (the bench's baseline).
   */
  science: boolean;
  /**
   * REQUEST_TIMEOUT_MS: the most a client may take to send a whole request, headers and body
   * (server/plugins/request-timeouts.ts). A stalled request is answered 408 and its connection
   * closed within this and one check interval (REQUEST_TIMEOUT_MS / 10, at most a second).
   */
  requestTimeoutMs: number;
  /** BODY_IDLE_TIMEOUT_MS: the longest pause between two parts of a request body. */
  bodyIdleTimeoutMs: number;
}

/** Far longer than any body the API takes needs on a slow line (16 KiB, 1 MiB for an administrator). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** A client that stops sending within a body is let go well before the whole request's limit. */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 10_000;

/** A positive whole number of milliseconds from the environment, or the default when unset. */
function parseMilliseconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const milliseconds = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(milliseconds) || milliseconds <= 0)
    throw new Error(`${name} must be a positive whole number of milliseconds, got '${value}'`);
  return milliseconds;
}

/** Trust in the proxies before this server: whether the address of the `hop`-th one is a proxy's. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY: which peers' X-Forwarded-For, -Proto and -Host to believe. The client's address is
 * the rightmost X-Forwarded-For entry not written by a trusted proxy, read from the right, since
 * each proxy appends the address it saw: an entry further left is whatever the client wrote.
 *
 * - unset, `false` or `0`: none; the socket's peer is the client.
 * - `true`: one proxy, the socket's peer (a hop count of 1): the client is the address that
 *   proxy saw. Not "trust everything", which made the leftmost entry, the client's own words, the
 *   client's address.
 * - a hop count N: the socket's peer and the N − 1 proxies before it.
 * - the proxies' addresses or ranges, comma-separated (`127.0.0.1`, `10.0.0.0/8`, `::1`, or
 *   `loopback`, `linklocal`, `uniquelocal`): only a peer of the list is believed, however
 *   many there are.
 *
 * Given to Fastify as a function either way: Fastify 5.12 takes a bare number to trust no peer at
 * all (a direct client could otherwise claim any address), and compiles a list with proxy-addr,
 * as here, where a bad entry stops the server at its start rather than at the first request.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | false {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  const hops = text === 'true' ? 1 : /^\d+$/.test(text) ? Number(text) : undefined;
  if (hops !== undefined) return (_address, hop) => hop < hops;
  try {
    return proxyAddr.compile(text.split(',').map((entry) => entry.trim()));
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be true, a hop count or the proxies' addresses (IP, CIDR, loopback, linklocal, uniquelocal), got '${text}': ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** The origins of ALLOWED_ORIGINS, each an http(s) origin (a path, query or fragment is an error). */
function parseAllowedOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {
        // Reported below with the entry.
      }
      const originOnly =
        url !== null &&
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.pathname === '/' &&
        !url.search &&
        !url.hash &&
        !url.username &&
        !url.password;
      if (!originOnly)
        throw new Error(
          `ALLOWED_ORIGINS must be a comma-separated list of origins such as https://galaxy.example.org, got '${entry}'`,
        );
      return url!.origin;
    });
}

/** With PUBLIC_URL unset the site is http://localhost:PORT, which a browser may also reach by address. */
function loopbackOrigins(port: number): string[] {
  return ['localhost', '127.0.0.1', '[::1]'].map((host) => new URL(`http://${host}:${port}`).origin);
}

function checkedTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new Error(`TIME_ZONE must be an IANA time zone such as Asia/Tokyo, got '${timeZone}'`);
  }
  return timeZone;
}

/**
 * The project's folder: the nearest one at or above this module that holds package.json, found
 * alike from the sources (server/) and from the JavaScript build (build/node/).
 */
export const projectRoot = (() => {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(directory, 'package.json')) && path.dirname(directory) !== directory)
    directory = path.dirname(directory);
  return directory;
})();

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const varDirectory = path.resolve(env.VAR_DIR ?? path.join(projectRoot, 'var'));
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  let publicUrl: URL;
  try {
    publicUrl = new URL(env.PUBLIC_URL || `http://localhost:${port}`);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute URL such as https://galaxy.example.org, got '${env.PUBLIC_URL}'`);
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    namedStatements: env.NAMED_STATEMENTS !== 'off',
    dataHost: env.DATA_HOST || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    varDirectory,
    distDirectory: path.resolve(env.DIST_DIR ?? path.join(projectRoot, 'dist')),
    timeZone: checkedTimeZone(env.TIME_ZONE || 'Asia/Tokyo'),
    present: loadPresentConfig(env),
    publicUrl: publicUrl.href.replace(/\/$/, ''),
    allowedOrigins: [
      ...new Set([
        publicUrl.origin,
        ...parseAllowedOrigins(env.ALLOWED_ORIGINS),
        ...(env.PUBLIC_URL ? [] : loopbackOrigins(port)),
      ]),
    ],
    mailFrom: env.MAIL_FROM || `Galaxy Cruise <no-reply@${publicUrl.hostname}>`,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    rateLimits: env.RATE_LIMITS !== 'off',
    science: env.SCIENCE !== 'off',
    requestTimeoutMs: parseMilliseconds('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS),
    bodyIdleTimeoutMs: parseMilliseconds(
      'BODY_IDLE_TIMEOUT_MS',
      env.BODY_IDLE_TIMEOUT_MS,
      DEFAULT_BODY_IDLE_TIMEOUT_MS,
    ),
  };
}

function parseInstant(name: string, value: string): Date {
  // An offset is required: a bare local time would depend on the server's time zone.
  const date = new Date(value);
  if (!/(Z|[+-]\d\d:\d\d)$/.test(value) || Number.isNaN(date.getTime()))
    throw new Error(`${name} must be an ISO 8601 date-time with an offset, got '${value}'`);
  return date;
}

/** application-spec §9: page opens 2025-02-07 09:00 JST, deadline 14 Feb 2025 23:59 JST, 1000 galaxies. */
function loadPresentConfig(env: NodeJS.ProcessEnv): ServerConfig['present'] {
  const opensAt = parseInstant('PRESENT_OPENS_AT', env.PRESENT_OPENS_AT || '2025-02-07T09:00:00+09:00');
  const deadline = parseInstant('PRESENT_DEADLINE', env.PRESENT_DEADLINE || '2025-02-14T23:59:59+09:00');
  const minGalaxies = Number(env.PRESENT_MIN_GALAXIES || 1000);
  if (!Number.isSafeInteger(minGalaxies) || minGalaxies < 0)
    throw new Error(`PRESENT_MIN_GALAXIES must be a whole number, got '${env.PRESENT_MIN_GALAXIES}'`);
  if (opensAt >= deadline) throw new Error('PRESENT_OPENS_AT must be before PRESENT_DEADLINE');
  return { opensAt, deadline, minGalaxies };
}
