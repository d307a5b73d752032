// An imported course's colour settings for a HiPS of FITS tiles (docs/import.md, "FITS tiles"):
// the pretty-picture preset (shared/prettyMixing.ts: a, b, beta, bias, exposure, gamma,
// ground, mix, nFilters) the viewer colours each decoded tile with. Null for a course whose HiPS
// is an image HiPS (PNG, JPEG, WebP), which carries its colours.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table courses add column hips_colour jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table courses drop column hips_colour`.execute(db);
}
