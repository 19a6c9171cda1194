import { Command } from 'commander';

export const serveCommand = () =>
  new Command('serve').description('Start the server (the same as npm start); configured by environment variables').action(async () => {
    // Loaded on use: the server's modules would slow every other command's start.
    const { main } = await import('../main.ts');
    await main();
  });
