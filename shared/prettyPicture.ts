// The pretty pictures of the sky data repository (viewer-spec §3, §7): which objects there are,
// and the preset each one's pretty_picture/{name}/meta.json carries. Written by skydata/pretty.ts
// (prettyPreset: each object's values and why), read by the globe's pretty-picture layers, which
// mix the filters by shared/prettyMixing.ts; tests/unit/pretty-contrast.test.ts holds every
// preset to showing its object.

export const PRETTY_PICTURES = ['m31', 'm42', 'm45', 'm101', 'perseus'] as const;
export type PrettyPicture = (typeof PRETTY_PICTURES)[number];

/** The saved view of a preset: right ascension a and declination d, fovy and roll, radians. */
export interface PrettyView {
  a: number;
  d: number;
  fovy: number;
  roll: number;
}

export interface PrettyPreset {
  nFilters: number;
  a: number;
  b: number;
  mix: number;
  beta: number;
  bias: number;
  exposure: number;
  gamma: number;
  ground: number;
  view: PrettyView;
}
