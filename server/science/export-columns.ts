// The columns of the exported catalogue, one list for every format: name, type, unit, UCD (IVOA
// UCD1+ words, so that TOPCAT knows ra and dec as the position) and the description every format
// carries (FITS as TCOMMn and astropy's column header, VOTable as DESCRIPTION, CSV in its ECSV
// header). An imported course's catalogue adds the research group's own `id` and `name`.
import { VOTES } from '../db/vote-columns';

export type ColumnKind = 'long' | 'int' | 'double' | 'boolean' | 'string';

/** A column of an exported table: `name` is the key of the row objects the writers are given. */
export interface ExportColumn {
  name: string;
  kind: ColumnKind;
  /** Characters of a string column (FITS needs a fixed width). */
  width?: number;
  /** A string column that may hold any Unicode (VOTable unicodeChar; FITS writes ASCII, '?' for the rest). */
  unicode?: boolean;
  unit?: string;
  ucd?: string;
  description: string;
}

const count = (name: string, what: string): ExportColumn => ({
  name,
  kind: 'int',
  ucd: 'meta.number',
  description: `Volunteers who answered ${what}`,
});

const share = (name: string, weighted: boolean, what: string): ExportColumn => ({
  name,
  kind: 'double',
  ucd: 'stat.fit',
  description: `${weighted ? 'Reliability-weighted' : 'Raw'} vote fraction: ${what}`,
});

const fractions = (weighted: boolean): ExportColumn[] =>
  VOTES.map((vote) => share(`${weighted ? 'fw' : 'f'}_${vote.option}`, weighted, vote.share));

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'object_id', kind: 'long', ucd: 'meta.id;meta.main', description: 'Target identifier (object_id)' },
  { name: 'ra', kind: 'double', unit: 'deg', ucd: 'pos.eq.ra;meta.main', description: 'Right ascension (ICRS)' },
  { name: 'dec', kind: 'double', unit: 'deg', ucd: 'pos.eq.dec;meta.main', description: 'Declination (ICRS)' },
  count('volunteers', 'this target'),
  ...VOTES.map((vote) => count(`n_${vote.option}`, vote.counts)),
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
    name: 'removed',
    kind: 'boolean',
    ucd: 'meta.code',
    description: 'No longer in the target list (left out by a later import); its answers are kept',
  },
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

/**
 * The columns of a course's catalogue: an imported course's adds, after object_id, the research
 * group's own `id` and `name` from its target list (`nameWidth` characters, the longest name).
 */
export function catalogueColumns({ imported, nameWidth }: { imported: boolean; nameWidth: number }): ExportColumn[] {
  if (!imported) return [...EXPORT_COLUMNS];
  const [objectId, ...rest] = EXPORT_COLUMNS;
  return [
    objectId!,
    { name: 'id', kind: 'long', ucd: 'meta.id', description: "The research group's target id (the list's id)" },
    {
      name: 'name',
      kind: 'string',
      width: Math.max(1, nameWidth),
      unicode: true,
      ucd: 'meta.id',
      description: "The research group's target name (the list's name)",
    },
    ...rest,
  ];
}

/** The pseudonym column of the raw-answer tables (./pseudonyms.ts). */
const VOLUNTEER: ExportColumn = {
  name: 'volunteer',
  kind: 'string',
  width: 16,
  ucd: 'meta.id',
  description: "The volunteer's pseudonym: HMAC-SHA256 of the account under the server's secret (16 hex digits)",
};

const weightColumn = (question: string): ExportColumn => ({
  name: `${question}_weight`,
  kind: 'double',
  ucd: 'stat.weight',
  description: `The volunteer's current ${question} weight (Youden's J of the Dawid-Skene rates; 0.5 before an estimate)`,
});

/**
 * One row per classification of a course: the target (and, for an imported course, the research
 * group's id and name), the volunteer's pseudonym, every answer field, when it was given, and the
 * volunteer's current weights.
 */
export function answerColumns({ imported, nameWidth }: { imported: boolean; nameWidth: number }): ExportColumn[] {
  const [objectId, id, name] = catalogueColumns({ imported, nameWidth });
  const answerField = (field: string, what: string): ExportColumn => ({
    name: field,
    kind: 'boolean',
    ucd: 'meta.code',
    description: `Answer: ${what} (only meaningful with interaction yes)`,
  });
  return [
    objectId!,
    ...(imported ? [id!, name!] : []),
    VOLUNTEER,
    {
      name: 'galaxy_type',
      kind: 'string',
      width: 10,
      ucd: 'src.morph.type',
      description: 'Answer: spiral, elliptical or not_sure',
    },
    {
      name: 'interaction',
      kind: 'string',
      width: 8,
      ucd: 'meta.code.class',
      description: 'Answer: yes, no or not_sure',
    },
    answerField('ring', 'a ring'),
    answerField('fan', 'a fan'),
    answerField('tail', 'a tail'),
    answerField('distorted', 'distorted'),
    {
      name: 'answered_at',
      kind: 'string',
      width: 23,
      ucd: 'time.epoch',
      description: 'When the answer took its present values (UTC, ISO 8601)',
    },
    {
      name: 'first_answered_at',
      kind: 'string',
      width: 23,
      ucd: 'time.epoch',
      description: 'When the volunteer first answered this target (UTC, ISO 8601)',
    },
    weightColumn('galaxy_type'),
    weightColumn('interaction'),
  ];
}

const rateColumn = (name: string, what: string): ExportColumn => ({
  name,
  kind: 'double',
  ucd: 'stat.probability',
  description: `Dawid-Skene ${what}; empty before the volunteer's first estimate`,
});

/** One row per volunteer of a course: the pseudonym, the answers, the estimated rates and weights. */
export const VOLUNTEER_COLUMNS: readonly ExportColumn[] = [
  VOLUNTEER,
  { name: 'answers', kind: 'int', ucd: 'meta.number', description: "The volunteer's answers in this course" },
  rateColumn('galaxy_type_sensitivity', 'P(says spiral | spiral)'),
  rateColumn('galaxy_type_specificity', 'P(says elliptical | elliptical)'),
  rateColumn('interaction_sensitivity', 'P(says yes | interacting)'),
  rateColumn('interaction_specificity', 'P(says no | not interacting)'),
  weightColumn('galaxy_type'),
  weightColumn('interaction'),
  {
    name: 'galaxy_type_answers',
    kind: 'int',
    ucd: 'meta.number',
    description: 'Spiral or elliptical answers the rates were estimated from (every course)',
  },
  {
    name: 'interaction_answers',
    kind: 'int',
    ucd: 'meta.number',
    description: 'Yes or no answers the rates were estimated from (every course)',
  },
  {
    name: 'estimated_at',
    kind: 'string',
    width: 23,
    ucd: 'time.epoch',
    description: 'When the rates were estimated (UTC, ISO 8601); empty before the first estimate',
  },
];
