// The passport's courses, and the files of the sky data repository that the rewards screens
// read and skydata/ writes (application-spec §2 Passport and Souvenirs; docs/sky-data.md).
import type { CourseId } from './enums';

/** The passport's tabs: the courses whose completed levels are stamped. */
export const PASSPORT_COURSES = ['season2', 'final_campaign', 'illustris'] as const satisfies readonly CourseId[];

/** The three passport stamp images. */
export const STAMP_IMAGES = ['passport/stamp-1.svg', 'passport/stamp-2.svg', 'passport/stamp-3.svg'] as const;

/** The souvenirs' names, descriptions, links and images (shared/catalogue.ts Souvenir[]). */
export const SOUVENIR_INDEX = 'souvenirs/index.json';
