// Holds the embedded database of VAR_DIR as a command would (withConfiguredDatabase): prints
// 'holding' once it is open, and closes it on SIGTERM. The lock tests start it as a child
// process to stand for a long `galaxy-cruise import` (tests/server/database-lock.test.ts).
//
// Usage: node --import tsx tests/helpers/hold-database.ts [COMMAND]
import { withConfiguredDatabase } from '../../cli/database';

await withConfiguredDatabase(process.argv[2] ?? 'import', async () => {
  process.stdout.write('holding\n');
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
});
