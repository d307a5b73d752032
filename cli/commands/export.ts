// `galaxy-cruise export --course C --format csv|fits|votable [-o FILE] [--estimate]`: the course's
// consensus catalogue (docs/science.md) from the configured database (DATABASE_URL, or the
// embedded PGlite under VAR_DIR/db), streamed to FILE or standard output.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { courseExists } from '../../server/science/catalogue-rows';
import { sumNewAnswers } from '../../server/science/consensus';
import { EXPORT_FORMATS, exportCatalogue, isExportFormat } from '../../server/science/export';
import { estimateReliability } from '../../server/science/reliability';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';
import { withConfiguredDatabase } from '../database';

export const exportCommand: Command = {
  usage: [
    'galaxy-cruise export --course COURSE --format csv|fits|votable [-o FILE] [--estimate]',
    '',
    'One row per target of COURSE: vote counts, raw and reliability-weighted vote fractions, the',
    'consensus and its confidence, retired, and the catalogue truth. Answers not yet summed are',
    'summed first; --estimate re-estimates the volunteers\u2019 reliability before the export.',
    'Without -o the file goes to standard output. With the embedded database (no DATABASE_URL),',
    'stop the server first: only one process may open VAR_DIR/db at a time.',
  ].join('\n'),
  async run(args) {
    const { values, positionals } = parseOptions(args, {
      course: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      estimate: { type: 'boolean' },
    });
    atMostPositionals(positionals, 0);
    if (!values.course) throw new UsageError('export needs --course');
    if (!values.format || !isExportFormat(values.format))
      throw new UsageError(`export needs --format ${EXPORT_FORMATS.join('|')}`);
    const format = values.format;
    return withConfiguredDatabase('export', async (db) => {
      if (!(await courseExists(db, values.course!))) throw new Error(`no course '${values.course}' in the database`);
      if (values.estimate) {
        const estimate = await estimateReliability(db);
        process.stderr.write(
          `reliability of ${estimate.volunteers} volunteers from ${estimate.answers} answers in ${estimate.iterations} iterations\n`,
        );
      } else await sumNewAnswers(db);
      const output = values.output ? fs.createWriteStream(values.output) : process.stdout;
      await pipeline(Readable.from(exportCatalogue(db, values.course!, format)), output);
      if (values.output) process.stderr.write(`wrote ${values.output}\n`);
      return 0;
    });
  },
};
