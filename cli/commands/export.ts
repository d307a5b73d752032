// `galaxy-cruise export --course C --format csv|fits|votable [--answers | --volunteers] [-o FILE]
// [--estimate]`: the course's consensus catalogue, its raw answers or its volunteers' reliability
// (docs/science.md) from the configured database (DATABASE_URL, or the embedded PGlite under
// VAR_DIR/db), streamed to FILE or standard output.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { courseExists } from '../../server/science/catalogue-rows';
import { sumNewAnswers } from '../../server/science/consensus';
import { EXPORT_FORMATS, exportTable, isExportFormat, type ExportTable } from '../../server/science/export';
import { serverSecret } from '../../server/science/pseudonyms';
import { estimateReliability } from '../../server/science/reliability';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';
import { withConfiguredDatabase } from '../database';

export const exportCommand: Command = {
  usage: [
    'galaxy-cruise export --course COURSE --format csv|fits|votable [--answers | --volunteers] [-o FILE] [--estimate]',
    '',
    'One row per target of COURSE: vote counts, raw and reliability-weighted vote fractions, the',
    'consensus and its confidence, retired, and the catalogue truth. Answers not yet summed are',
    'summed first; --estimate re-estimates the volunteers\u2019 reliability before the export.',
    '--answers: one row per classification instead (the volunteer a pseudonym: an HMAC of the',
    'account under SESSION_SECRET or VAR_DIR/secret; no e-mail or nickname). --volunteers: one row',
    'per volunteer of COURSE with the same pseudonym and the estimated rates.',
    'Without -o the file goes to standard output. With the embedded database (no DATABASE_URL),',
    'stop the server first: only one process may open VAR_DIR/db at a time.',
  ].join('\n'),
  async run(args) {
    const { values, positionals } = parseOptions(args, {
      course: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      estimate: { type: 'boolean' },
      answers: { type: 'boolean' },
      volunteers: { type: 'boolean' },
    });
    atMostPositionals(positionals, 0);
    if (!values.course) throw new UsageError('export needs --course');
    if (!values.format || !isExportFormat(values.format))
      throw new UsageError(`export needs --format ${EXPORT_FORMATS.join('|')}`);
    const format = values.format;
    if (values.answers && values.volunteers) throw new UsageError('export takes --answers or --volunteers, not both');
    const table: ExportTable = values.answers ? 'answers' : values.volunteers ? 'volunteers' : 'catalogue';
    return withConfiguredDatabase('export', async (db, config) => {
      if (!(await courseExists(db, values.course!))) throw new Error(`no course '${values.course}' in the database`);
      if (values.estimate) {
        const estimate = await estimateReliability(db);
        process.stderr.write(
          `reliability of ${estimate.volunteers} volunteers from ${estimate.answers} answers in ${estimate.iterations} iterations\n`,
        );
      } else await sumNewAnswers(db);
      const output = values.output ? fs.createWriteStream(values.output) : process.stdout;
      const secret = () => serverSecret(config.varDirectory);
      await pipeline(Readable.from(exportTable(db, values.course!, table, format, secret)), output);
      if (values.output) process.stderr.write(`wrote ${values.output}\n`);
      return 0;
    });
  },
};
