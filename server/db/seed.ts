// Seeding the game model from the sky catalogue (var/sky/catalogue.json, written by skydata/):
// on first start and whenever the catalogue's digest changes. One transaction upserts courses,
// levels, areas, targets and campaigns by the catalogue's own ids, marks rows that left the
// catalogue as retired (never deletes them: quests and answers keep pointing at them), recounts
// the campaign windows and stores the digest. Answers are never touched, so re-seeding keeps
// every classification. The levels, areas and targets are written by the course writer that
// `galaxy-cruise import` uses too (server/db/course-writer.ts); what is the catalogue's is here.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Catalogue } from '../../shared/catalogue';
import { COURSE_IDS, GALAXY_TYPES, INTERACTIONS, LEVEL_TYPES } from '../../shared/enums';
import type { CampaignsTable, CoursesTable, Database } from './schema';
import { fromExcluded, seedTransaction, writeCourses } from './course-writer';

/** Where skydata/ writes the catalogue (skydata/paths.ts cataloguePath; the server does not import skydata/). */
export function catalogueFile(varDirectory: string): string {
  return path.join(varDirectory, 'sky', 'catalogue.json');
}

export interface SeedResult {
  seeded: boolean;
  digest: string;
  levels: number;
  areas: number;
  targets: number;
  campaigns: number;
}

function fail(message: string): never {
  throw new Error(`catalogue.json: ${message}`);
}

/** Checks what the database cannot: the shape and the uniqueness of the catalogue's ids. */
export function checkCatalogue(catalogue: Catalogue): void {
  if (catalogue.format !== 1) fail(`format ${String(catalogue.format)} is not 1`);
  if (typeof catalogue.digest !== 'string' || !catalogue.digest) fail('digest is missing');
  const levelIds = new Set<number>();
  const levelKeys = new Set<string>();
  const areaIds = new Set<number>();
  const objectIds = new Set<number>();
  for (const course of catalogue.courses) {
    if (!(COURSE_IDS as readonly string[]).includes(course.id)) fail(`unknown course '${course.id}'`);
    for (const level of course.levels) {
      if (levelIds.has(level.id) || levelKeys.has(level.key)) fail(`level ${level.id} (${level.key}) appears twice`);
      levelIds.add(level.id);
      levelKeys.add(level.key);
      if (!(LEVEL_TYPES as readonly string[]).includes(level.type)) fail(`level ${level.key} has type '${level.type}'`);
      for (const area of level.areas) {
        if (areaIds.has(area.id)) fail(`area ${area.id} appears twice`);
        areaIds.add(area.id);
        if (!area.outlines.some((outline) => outline.length > 0)) fail(`area ${area.id} has no outline`);
        for (const target of area.targets) {
          if (!Number.isSafeInteger(target.object_id))
            fail(`object_id ${target.object_id} is not an integer below 2^53`);
          if (objectIds.has(target.object_id)) fail(`object ${target.object_id} appears twice`);
          objectIds.add(target.object_id);
          if (!(GALAXY_TYPES as readonly string[]).includes(target.galaxy_type))
            fail(`object ${target.object_id} has galaxy_type '${target.galaxy_type}'`);
          if (!(INTERACTIONS as readonly string[]).includes(target.interaction))
            fail(`object ${target.object_id} has interaction '${target.interaction}'`);
        }
      }
    }
  }
}

export async function seedCatalogue(db: Kysely<Database>, catalogue: Catalogue): Promise<SeedResult> {
  checkCatalogue(catalogue);
  const levels = catalogue.courses.flatMap((course, coursePosition) =>
    course.levels.map((level, position) => ({ course, coursePosition, level, position })),
  );
  const areas = levels.flatMap(({ level }) => level.areas.map((area, position) => ({ level, area, position })));
  const targets = areas.flatMap(({ area }) => area.targets.map((target, position) => ({ area, target, position })));
  const result: SeedResult = {
    seeded: false,
    digest: catalogue.digest,
    levels: levels.length,
    areas: areas.length,
    targets: targets.length,
    campaigns: catalogue.campaigns.length,
  };

  return seedTransaction(db, async (trx) => {
    const state = await trx.selectFrom('catalogue_state').select('digest').where('id', '=', 1).executeTakeFirst();
    if (state?.digest === catalogue.digest) return result;

    // Every course of the enumeration exists, so a course id in a URL is valid even when this
    // catalogue has no levels for it.
    const courseIds = [...COURSE_IDS];
    await trx
      .insertInto('courses')
      .values(courseIds.map((id, position) => ({ id, position })))
      .onConflict((oc) => oc.column('id').doUpdateSet(fromExcluded<CoursesTable>(['position'])))
      .execute();

    // The catalogue's ids are the rows' ids; what left the catalogue is retired within its own
    // five courses only, so a course that `galaxy-cruise import` seeded beside them is left as it
    // is (server/db/imported-course.ts).
    await writeCourses(trx, {
      courseIds,
      levels: levels.map(({ course, level: { id, key, name_key, name, type, depth, survey, labels }, position }) => ({
        id,
        course_id: course.id,
        position,
        key,
        name_key,
        name,
        type,
        depth,
        survey,
        labels: labels ?? [],
      })),
      areas: areas.map(({ level, area, position }) => ({
        id: area.id,
        level_id: level.id,
        position,
        outlines: area.outlines,
      })),
      targets: targets.map(({ area, target, position }) => ({
        object_id: target.object_id,
        area_id: area.id,
        position,
        ra: target.ra,
        dec: target.dec,
        galaxy_type: target.galaxy_type,
        interaction: target.interaction,
        ring: target.ring,
        fan: target.fan,
        tail: target.tail,
        distorted: target.distorted,
        captain_note: target.captain_note ?? null,
      })),
    });

    if (catalogue.campaigns.length > 0)
      await trx
        .insertInto('campaigns')
        .values(
          catalogue.campaigns.map((campaign) => ({
            id: campaign.id,
            name: JSON.stringify(campaign.name),
            period_begin: new Date(campaign.period_begin),
            period_end: new Date(campaign.period_end),
            medals: JSON.stringify([...campaign.medals].sort((a, b) => a.count - b.count)),
          })),
        )
        .onConflict((oc) =>
          oc.column('id').doUpdateSet(fromExcluded<CampaignsTable>(['name', 'period_begin', 'period_end', 'medals'])),
        )
        .execute();
    await sql`update campaigns set retired = not (id = any(${sql.val(
      catalogue.campaigns.map((campaign) => campaign.id),
    )}::bigint[]))`.execute(trx);
    // A window may have moved: its count is recounted from the answers themselves (and this also
    // repairs the counter after anything that bypassed the answer transaction).
    await sql`update campaigns set answers_count = (
        select count(*) from answers
        where answers.created_at >= campaigns.period_begin and answers.created_at <= campaigns.period_end)`.execute(
      trx,
    );

    await trx
      .insertInto('catalogue_state')
      .values({ id: 1, digest: catalogue.digest })
      .onConflict((oc) => oc.column('id').doUpdateSet({ digest: catalogue.digest, seeded_at: new Date() }))
      .execute();
    return { ...result, seeded: true };
  });
}

/**
 * Seeds from var/sky/catalogue.json when it exists (a server started before `galaxy-cruise data`
 * serves no game until the sky is built and the server restarted).
 */
export async function seedFromCatalogueFile(
  db: Kysely<Database>,
  file: string,
): Promise<SeedResult | { seeded: false; missing: string }> {
  if (!fs.existsSync(file)) return { seeded: false, missing: file };
  const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue;
  return seedCatalogue(db, catalogue);
}
