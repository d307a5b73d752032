// `galaxy-cruise serve`: the application, the API and the sky data, configured by the
// environment (server/config.ts).
import { startServer } from '../../server/main';
import { atMostPositionals, parseOptions, type Command } from '../command';

export const serveCommand: Command = {
  usage: 'galaxy-cruise serve',
  async run(args) {
    atMostPositionals(parseOptions(args, {}).positionals, 0);
    await startServer();
    // Keep running until a signal stops the server (server/main.ts exits the process).
    await new Promise(() => {});
    return 0;
  },
};
