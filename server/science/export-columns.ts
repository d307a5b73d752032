// The columns of the exported catalogue, one list for every format: name, type, unit, UCD (IVOA
// UCD1+ words, so that TOPCAT knows ra and dec as the position) and the description each format
// carries (CSV's header names them; FITS and VOTable carry type, unit and description).
import type { CatalogueRow } from './catalogue-rows';

export type ColumnKind = 'long' | 'int' | 'double' | 'boolean' | 'string';

export interface ExportColumn {
  name: keyof CatalogueRow;
  kind: ColumnKind;
  /** Characters of a string column (FITS needs a fixed width). */
  width?: number;
  unit?: string;
  ucd?: string;
  description: string;
}

const count = (name: keyof CatalogueRow, what: string): ExportColumn => ({
  name,
  kind: 'int',
  ucd: 'meta.number',
  description: `Volunteers who answered ${what}`,
});

const share = (name: keyof CatalogueRow, weighted: boolean, what: string): ExportColumn => ({
  name,
  kind: 'double',
  ucd: 'stat.fit',
  description: `${weighted ? 'Reliability-weighted' : 'Raw'} vote fraction: ${what}`,
});

const fractions = (weighted: boolean): ExportColumn[] => {
  const prefix = weighted ? 'fw' : 'f';
  return [
    share(`${prefix}_spiral` as keyof CatalogueRow, weighted, 'galaxy_type spiral'),
    share(`${prefix}_elliptical` as keyof CatalogueRow, weighted, 'galaxy_type elliptical'),
    share(`${prefix}_type_not_sure` as keyof CatalogueRow, weighted, 'galaxy_type not_sure'),
    share(`${prefix}_interaction_yes` as keyof CatalogueRow, weighted, 'interaction yes'),
    share(`${prefix}_interaction_no` as keyof CatalogueRow, weighted, 'interaction no'),
    share(`${prefix}_interaction_not_sure` as keyof CatalogueRow, weighted, 'interaction not_sure'),
    share(`${prefix}_ring` as keyof CatalogueRow, weighted, 'ring, among interaction yes'),
    share(`${prefix}_fan` as keyof CatalogueRow, weighted, 'fan, among interaction yes'),
    share(`${prefix}_tail` as keyof CatalogueRow, weighted, 'tail, among interaction yes'),
    share(`${prefix}_distorted` as keyof CatalogueRow, weighted, 'distorted, among interaction yes'),
  ];
};

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'object_id', kind: 'long', ucd: 'meta.id;meta.main', description: 'Target identifier (object_id)' },
  { name: 'ra', kind: 'double', unit: 'deg', ucd: 'pos.eq.ra;meta.main', description: 'Right ascension (ICRS)' },
  { name: 'dec', kind: 'double', unit: 'deg', ucd: 'pos.eq.dec;meta.main', description: 'Declination (ICRS)' },
  count('volunteers', 'this target'),
  count('n_spiral', 'galaxy_type spiral'),
  count('n_elliptical', 'galaxy_type elliptical'),
  count('n_type_not_sure', 'galaxy_type not_sure'),
  count('n_interaction_yes', 'interaction yes'),
  count('n_interaction_no', 'interaction no'),
  count('n_interaction_not_sure', 'interaction not_sure'),
  count('n_ring', 'interaction yes with a ring'),
  count('n_fan', 'interaction yes with a fan'),
  count('n_tail', 'interaction yes with a tail'),
  count('n_distorted', 'interaction yes, distorted'),
  ...fractions(false),
  ...fractions(true),
  {
    name: 'p_spiral',
    kind: 'double',
    ucd: 'stat.probability',
    description: 'Dawid-Skene posterior probability that the galaxy is spiral',
  },
  {
    name: 'p_interaction',
    kind: 'double',
    ucd: 'stat.probability',
    description: 'Dawid-Skene posterior probability that the galaxy interacts',
  },
  {
    name: 'consensus_galaxy_type',
    kind: 'string',
    width: 10,
    ucd: 'src.morph.type',
    description: 'Consensus galaxy_type: spiral, elliptical, or not_sure without votes',
  },
  {
    name: 'galaxy_type_confidence',
    kind: 'double',
    ucd: 'stat.probability',
    description: 'Posterior probability of the consensus galaxy_type',
  },
  {
    name: 'consensus_interaction',
    kind: 'string',
    width: 8,
    ucd: 'meta.code.class',
    description: 'Consensus interaction: yes, no, or not_sure without votes',
  },
  {
    name: 'interaction_confidence',
    kind: 'double',
    ucd: 'stat.probability',
    description: 'Posterior probability of the consensus interaction',
  },
  { name: 'retired', kind: 'boolean', ucd: 'meta.code', description: 'Retired by the course rule' },
  {
    name: 'true_galaxy_type',
    kind: 'string',
    width: 10,
    ucd: 'src.morph.type',
    description: "The sky catalogue's galaxy_type (truth)",
  },
  {
    name: 'true_interaction',
    kind: 'string',
    width: 8,
    ucd: 'meta.code.class',
    description: "The sky catalogue's interaction (truth)",
  },
];
