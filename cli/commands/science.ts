// `galaxy-cruise science estimate` re-estimates the volunteers' reliability now (the server does
// it in the background as answers grow); `galaxy-cruise science rule --course C …` sets or clears
// a course's retirement rule (docs/science.md). The five courses of application-spec keep theirs
// off: the rule is for the courses a research group defines.
import { COURSE_IDS } from '../../shared/enums';
import { courseExists } from '../../server/science/catalogue-rows';
import { sumNewAnswers } from '../../server/science/consensus';
import { estimateReliability } from '../../server/science/reliability';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';
import { withConfiguredDatabase } from '../database';

export const scienceCommand: Command = {
  usage: [
    'galaxy-cruise science estimate',
    'galaxy-cruise science rule --course C [--min-volunteers N --min-confidence P] [--max-volunteers M] | --off',
    '',
    'rule: a target of C is retired (no longer put into new quests) once it has at least N',
    'volunteers and a consensus at least P sure (0.5 to 1) on both questions, or at least M',
    'volunteers. With the embedded database (no DATABASE_URL), stop the server first.',
  ].join('\n'),
  async run(args) {
    const { values, positionals } = parseOptions(args, {
      course: { type: 'string' },
      'min-volunteers': { type: 'string' },
      'min-confidence': { type: 'string' },
      'max-volunteers': { type: 'string' },
      off: { type: 'boolean' },
    });
    const [action] = positionals;
    atMostPositionals(positionals, 1);
    if (action !== 'estimate' && action !== 'rule')
      throw new UsageError(action === undefined ? 'science needs estimate or rule' : `unknown action '${action}'`);
    const whole = (name: 'min-volunteers' | 'max-volunteers') => {
      const text = values[name];
      if (text === undefined) return null;
      const number = Number(text);
      if (!Number.isInteger(number) || number < 1) throw new UsageError(`--${name} needs a positive whole number`);
      return number;
    };
    let rule: { min: number | null; confidence: number | null; max: number | null } | undefined;
    if (action === 'rule') {
      if (!values.course) throw new UsageError('science rule needs --course');
      if ((COURSE_IDS as readonly string[]).includes(values.course))
        throw new Error(`'${values.course}' is a course of the application spec: its retirement rule stays off`);
      const confidence = values['min-confidence'] === undefined ? null : Number(values['min-confidence']);
      if (confidence !== null && !(confidence >= 0.5 && confidence <= 1))
        throw new UsageError('--min-confidence needs a number from 0.5 to 1');
      rule = { min: whole('min-volunteers'), confidence, max: whole('max-volunteers') };
      if (values.off) {
        if (rule.min !== null || rule.confidence !== null || rule.max !== null)
          throw new UsageError('--off takes no other rule option');
      } else if (rule.max === null && (rule.min === null || rule.confidence === null))
        throw new UsageError('a rule needs --min-volunteers with --min-confidence, or --max-volunteers');
    }
    return withConfiguredDatabase('science', async (db) => {
      if (action === 'estimate') {
        await sumNewAnswers(db);
        const result = await estimateReliability(db);
        const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
        process.stdout.write(
          `reliability of ${result.volunteers} volunteers from ${result.answers} answers in ${result.iterations} iterations` +
            ` (read ${seconds(result.readMs)}, iterations ${seconds(result.iterateMs)}, written ${seconds(result.writeMs)})\n`,
        );
        return 0;
      }
      if (!(await courseExists(db, values.course!))) throw new Error(`no course '${values.course}' in the database`);
      await db
        .updateTable('courses')
        .set({
          retire_min_volunteers: rule!.min,
          retire_min_confidence: rule!.confidence,
          retire_max_volunteers: rule!.max,
        })
        .where('id', '=', values.course!)
        .execute();
      process.stdout.write(
        values.off ? `course ${values.course}: no retirement\n` : `course ${values.course}: rule set\n`,
      );
      return 0;
    });
  },
};
