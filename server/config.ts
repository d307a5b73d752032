// Server configuration from the environment (ARCHITECTURE.md, "Configuration"); every variable
// is optional and the defaults make `npm start` work on a fresh machine.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerConfig {
  port: number;
  host: string;
  /** Unset: embedded PGlite under `varDirectory/db`. */
  databaseUrl: string | undefined;
  /** Unset: sky data served by this server from `varDirectory/sky`. */
  dataHost: string | undefined;
  smtpUrl: string | undefined;
  adminEmails: string[];
  /** Runtime state: db/, outbox/, sky/ (git-ignored). */
  varDirectory: string;
  /** The built client (vite build). */
  distDirectory: string;
}

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const varDirectory = path.resolve(env.VAR_DIR ?? path.join(projectRoot, 'var'));
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataHost: env.DATA_HOST || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    varDirectory,
    distDirectory: path.resolve(env.DIST_DIR ?? path.join(projectRoot, 'dist')),
  };
}
