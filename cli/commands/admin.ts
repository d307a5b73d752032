// `galaxy-cruise admin grant|revoke EMAIL` and `admin list`: the admin role (users.admin) in the
// configured database (DATABASE_URL, or the embedded PGlite under VAR_DIR/db). ADMIN_EMAILS
// grants the role as well, without a write; this command is for a role that outlives the list.
import { parseMailbox } from '../../server/auth/email-address';
import { UsageError, atMostPositionals, parseOptions, type Command } from '../command';
import { withConfiguredDatabase } from '../database';

export const adminCommand: Command = {
  usage: [
    'galaxy-cruise admin grant EMAIL | admin revoke EMAIL | admin list',
    '',
    'The account must exist (sign up first). With the embedded database (no DATABASE_URL),',
    'stop the server first: only one process may open VAR_DIR/db at a time.',
  ].join('\n'),
  async run(args) {
    const { positionals } = parseOptions(args, {});
    const [action, given] = positionals;
    if (action !== 'list' && action !== 'grant' && action !== 'revoke')
      throw new UsageError(action === undefined ? 'admin needs grant, revoke or list' : `unknown action '${action}'`);
    atMostPositionals(positionals, action === 'list' ? 1 : 2);
    if (action !== 'list' && given === undefined) throw new UsageError(`admin ${action} needs an EMAIL`);
    const email = given === undefined ? '' : parseMailbox(given);
    if (email === undefined) throw new UsageError(`'${given}' is not one e-mail address`);
    return withConfiguredDatabase('admin', async (db, config) => {
      if (action === 'list') {
        const admins = await db
          .selectFrom('users')
          .select('email')
          .where('admin', '=', true)
          .orderBy('email')
          .execute();
        for (const admin of admins) process.stdout.write(`${admin.email}\n`);
        for (const listed of config.adminEmails) process.stdout.write(`${listed} (ADMIN_EMAILS)\n`);
        return 0;
      }
      const updated = await db
        .updateTable('users')
        .set({ admin: action === 'grant' })
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .returning(['id', 'email'])
        .executeTakeFirst();
      if (!updated) throw new Error(`no account with the e-mail address ${email}: it must sign up first`);
      process.stdout.write(
        `${action === 'grant' ? 'granted the admin role to' : 'revoked the admin role of'} ${updated.email} (user ${updated.id})\n`,
      );
      if (action === 'revoke' && config.adminEmails.includes(email))
        process.stderr.write(`note: ${updated.email} is still on ADMIN_EMAILS, which grants the role as well\n`);
      return 0;
    });
  },
};
