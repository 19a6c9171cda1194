import { Command } from 'commander';
import { main } from '../main.ts';

export const serveCommand = () =>
  new Command('serve').description('Start the server (the same as npm start); configured by environment variables').action(main);
