// catalogue.json: what skydata/ writes beside the sky data and the server seeds from. It is the
// contract between the two rooms; the true answers stay server-side (never sent to the app
// except as captain notes' reference answers for training and review targets).
import type { CourseId, GalaxyType, Interaction, LevelType } from './enums';
import type { Locale } from './locale';

export type Localized = Record<Locale, string>;

/** The answer fields of application-spec §3 (defaults not_sure and false). */
export interface Morphology {
  galaxy_type: GalaxyType;
  interaction: Interaction;
  ring: boolean;
  fan: boolean;
  tail: boolean;
  distorted: boolean;
}

export interface CaptainNote {
  review_type: 'training' | 'tng_review';
  answer: Morphology;
  comments: Localized;
  img_caption: Localized;
  img_name: string;
}

export interface CatalogueTarget extends Morphology {
  /** Below 2^53, so a JSON number everywhere. */
  object_id: number;
  /** Degrees (ICRS). */
  ra: number;
  dec: number;
  captain_note?: CaptainNote;
}

/** Polygons as [ra, dec] degree pairs, closed implicitly. */
export type Outline = [number, number][];

export interface CatalogueArea {
  /** Unique over the catalogue. */
  id: number;
  outlines: Outline[];
  targets: CatalogueTarget[];
}

export interface MapLabel {
  name: Localized;
  ra: number;
  dec: number;
}

export interface CatalogueLevel {
  /** Unique over the catalogue. */
  id: number;
  /** level_key, stable across builds (e.g. 'season2-cosmos'). */
  key: string;
  /** level_name_key: the i18n key of the stage name. */
  name_key: string;
  name: Localized;
  type: LevelType;
  /** 'dud' marks a deep-field (tunnel effect) survey. */
  depth: 'wide' | 'dud' | 'simulation';
  /** Survey folder under {dataRepository}, holding meta.json, area.json and tiles. */
  survey: string;
  areas: CatalogueArea[];
  /** Island/archipelago (season2) or division (simulation) labels of the map overlay. */
  labels: MapLabel[];
}

export interface CatalogueCourse {
  id: CourseId;
  /** In sailing order; the first starts active. */
  levels: CatalogueLevel[];
}

export interface CatalogueMedal {
  count: number;
  image: string;
  notch: number;
  messages: Localized;
}

export interface CatalogueCampaign {
  id: number;
  name: Localized;
  /** ISO 8601 with offset. */
  period_begin: string;
  period_end: string;
  medals: CatalogueMedal[];
}

export interface Souvenir {
  id: string;
  name: Localized;
  description: Localized;
  image: string;
  links: string[];
}

export interface Catalogue {
  /** Bumped when the shape changes. */
  format: 1;
  /** Seed the sky was built with; the server re-seeds when `digest` changes. */
  seed: number;
  digest: string;
  courses: CatalogueCourse[];
  campaigns: CatalogueCampaign[];
  souvenirs: Souvenir[];
}
