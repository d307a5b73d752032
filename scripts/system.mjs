// What the tests need from Debian besides Node: installed when missing and running as root
// (apt-get), otherwise the run stops with a one-line instruction.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Each requirement: a check and the Debian packages that satisfy it. */
export const REQUIREMENTS = [
  { name: 'chromium', packages: ['chromium'], present: () => fs.existsSync('/usr/bin/chromium') },
  // Without a CJK font Chromium draws Japanese as empty boxes in every screenshot.
  {
    name: 'fonts-noto-cjk',
    packages: ['fonts-noto-cjk'],
    present: () => fs.existsSync('/usr/share/fonts/opentype/noto'),
  },
  { name: 'postgresql', packages: ['postgresql'], present: () => findPostgresBin('initdb') !== undefined },
  {
    name: 'python3 astropy and healpy',
    packages: ['python3-astropy', 'python3-healpy'],
    present: () => spawnSync('/usr/bin/python3', ['-c', 'import astropy, healpy'], { stdio: 'ignore' }).status === 0,
  },
  {
    name: 'gzip and pigz',
    packages: ['gzip', 'pigz'],
    present: () => fs.existsSync('/usr/bin/gzip') && fs.existsSync('/usr/bin/pigz'),
  },
];

/**
 * Finds a PostgreSQL server binary in Debian's versioned folders. Scripts run before anything is
 * built and import no TypeScript, so this check keeps its own copy of the lookup that
 * server/db/temporary-postgres.ts makes for the tests and the load bench.
 */
function findPostgresBin(name) {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const candidate = `${root}/${version}/bin/${name}`;
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function ensureSystem(requirements = REQUIREMENTS) {
  const missing = requirements.filter((requirement) => !requirement.present());
  if (missing.length === 0) return;
  const packages = missing.flatMap((requirement) => requirement.packages);
  if (process.getuid?.() !== 0) {
    console.error(
      `Missing ${missing.map((m) => m.name).join(', ')}: run 'sudo apt-get install -y ${packages.join(' ')}' and try again.`,
    );
    process.exit(1);
  }
  console.error(`installing ${packages.join(' ')} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  const still = missing.filter((requirement) => !requirement.present());
  if (still.length) {
    console.error(`apt-get did not provide ${still.map((m) => m.name).join(', ')}`);
    process.exit(1);
  }
}
