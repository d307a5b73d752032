// Where the end-to-end server runs: its port and its own VAR_DIR (database, outbox, small sky),
// shared by playwright.config.ts and the specs that read the server's outbox.
import os from 'node:os';
import path from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 18080);
export const E2E_ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_VAR_DIR = process.env.E2E_VAR_DIR ?? path.join(os.tmpdir(), `galaxy-cruise-e2e-${E2E_PORT}`);
