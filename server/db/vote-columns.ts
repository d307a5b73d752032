// The votes a target's answers are counted in, once: each option of the answer form (application-
// spec §4: galaxy_type, interaction, and the features asked after interaction yes) with the SQL
// condition an answer meets for it, and what it counts in the export's words. target_consensus
// holds n_<option> (answers) and w_<option> (reliability-weighted) for each (migration 0009, its
// history; the sums in ../science/consensus.ts), the catalogue adds f_<option> and fw_<option>
// (the vote fractions: ../science/catalogue-rows.ts, export-columns.ts).

export interface Vote {
  option: string;
  /** The question the option answers; the features are asked only after interaction yes. */
  question: 'galaxy_type' | 'interaction' | 'feature';
  /** The condition (SQL, over an answer's columns) that an answer meets to count for it. */
  where: string;
  /** What the n_ column counts, after "Volunteers who answered". */
  counts: string;
  /** What the f_ and fw_ columns are the fraction of. */
  share: string;
}

export const VOTES = [
  {
    option: 'spiral',
    question: 'galaxy_type',
    where: "galaxy_type = 'spiral'",
    counts: 'galaxy_type spiral',
    share: 'galaxy_type spiral',
  },
  {
    option: 'elliptical',
    question: 'galaxy_type',
    where: "galaxy_type = 'elliptical'",
    counts: 'galaxy_type elliptical',
    share: 'galaxy_type elliptical',
  },
  {
    option: 'type_not_sure',
    question: 'galaxy_type',
    where: "galaxy_type = 'not_sure'",
    counts: 'galaxy_type not_sure',
    share: 'galaxy_type not_sure',
  },
  {
    option: 'interaction_yes',
    question: 'interaction',
    where: "interaction = 'yes'",
    counts: 'interaction yes',
    share: 'interaction yes',
  },
  {
    option: 'interaction_no',
    question: 'interaction',
    where: "interaction = 'no'",
    counts: 'interaction no',
    share: 'interaction no',
  },
  {
    option: 'interaction_not_sure',
    question: 'interaction',
    where: "interaction = 'not_sure'",
    counts: 'interaction not_sure',
    share: 'interaction not_sure',
  },
  {
    option: 'ring',
    question: 'feature',
    where: "interaction = 'yes' and ring",
    counts: 'interaction yes with a ring',
    share: 'ring, among interaction yes',
  },
  {
    option: 'fan',
    question: 'feature',
    where: "interaction = 'yes' and fan",
    counts: 'interaction yes with a fan',
    share: 'fan, among interaction yes',
  },
  {
    option: 'tail',
    question: 'feature',
    where: "interaction = 'yes' and tail",
    counts: 'interaction yes with a tail',
    share: 'tail, among interaction yes',
  },
  {
    option: 'distorted',
    question: 'feature',
    where: "interaction = 'yes' and distorted",
    counts: 'interaction yes, distorted',
    share: 'distorted, among interaction yes',
  },
] as const satisfies readonly Vote[];

export type VoteOption = (typeof VOTES)[number]['option'];

/** target_consensus's counts and weighted counts, one pair per option. */
export type VoteSums = { [O in VoteOption as `n_${O}`]: number } & { [O in VoteOption as `w_${O}`]: number };

/** The catalogue's counts and raw and weighted fractions (null where nothing was voted). */
export type VoteColumns = { [O in VoteOption as `n_${O}`]: number } & {
  [O in VoteOption as `f_${O}`]: number | null;
} & { [O in VoteOption as `fw_${O}`]: number | null };
