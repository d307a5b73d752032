import { startServer } from '../../server/main';
import type { Command } from '../command';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the application, the API and the sky data (PORT, DATABASE_URL, DATA_HOST)',
  usage: 'galaxy-cruise serve',
  async run() {
    await startServer();
    // Keep running until a signal stops the server (server/main.ts exits the process).
    await new Promise(() => {});
    return 0;
  },
};
