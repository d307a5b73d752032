// The volunteers of the raw-answer exports are pseudonyms (docs/science.md, "Raw answers"): an
// HMAC-SHA256 (RFC 2104) of the account's id under the server's secret, its first 16 hexadecimal
// digits (64 bits). The same volunteer has the same pseudonym in every export of a server (the
// answers and the reliability table join on it), nobody can go back from it to the account
// without the secret, and two servers with different secrets give the same account different
// pseudonyms. The secret is SESSION_SECRET, or one made once and kept in VAR_DIR/secret
// (ARCHITECTURE.md, "Configuration"): set SESSION_SECRET where several hosts share a PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The server's secret: SESSION_SECRET, else VAR_DIR/secret, made (32 random bytes) when missing. */
export function serverSecret(varDirectory: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.SESSION_SECRET) return Buffer.from(env.SESSION_SECRET, 'utf8');
  const file = path.join(varDirectory, 'secret');
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(varDirectory, { recursive: true });
  try {
    // 'wx': a second process making it at the same moment keeps the first one's.
    fs.writeFileSync(file, crypto.randomBytes(32), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFileSync(file);
}

/** A volunteer's pseudonym under `secret`. */
export function volunteerPseudonym(secret: Buffer, userId: number): string {
  return crypto.createHmac('sha256', secret).update(`galaxy-cruise volunteer ${userId}`).digest('hex').slice(0, 16);
}
