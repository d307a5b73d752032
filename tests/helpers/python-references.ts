// Reference files made by real tools through a Python script under /usr/bin/python3 (Debian's
// gzip, pigz, astropy, healpy), generated once per version of the script. Test files run in
// parallel workers, so each run writes a private directory and renames it into place; a lost
// race just reuses the winner's. They live in the system's temporary directory, not
// test-results/, which Playwright empties whenever it starts.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const helpers = path.dirname(fileURLToPath(import.meta.url));

/**
 * The directory that `tests/helpers/<script>` fills (its one argument), made when it lacks
 * `marker`; directories of older versions of the script are removed.
 */
export function pythonReferences(script: string, name: string, marker: string): string {
  const source = path.join(helpers, script);
  const version = crypto.createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 12);
  const prefix = `galaxy-cruise-${name}-references-`;
  const dir = path.join(os.tmpdir(), `${prefix}${version}`);
  if (fs.existsSync(path.join(dir, marker))) return dir;
  const scratch = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    execFileSync('/usr/bin/python3', [source, scratch], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  try {
    fs.renameSync(scratch, dir);
  } catch {
    fs.rmSync(scratch, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, marker))) throw new Error(`cannot place ${dir}`);
  }
  const older = new RegExp(`^${prefix}[0-9a-f]{12}$`);
  for (const entry of fs.readdirSync(os.tmpdir())) {
    if (older.test(entry) && entry !== path.basename(dir)) {
      fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
    }
  }
  return dir;
}
