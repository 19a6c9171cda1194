import { CliError, EXIT, usageError } from './exit-codes.ts';

/** All of standard input, less one trailing newline: what a pipe or a redirected file holds. */
async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** One line typed at the terminal with echo off (raw mode), the prompt on stderr so stdout stays the command's. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
  stdin.setRawMode(true);
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new CliError('cancelled', EXIT.FAILURE)); // Ctrl-C: raw mode turns it into a byte
        if (ch === '\u0004') return finish(typed ? undefined : usageError('no password given'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.resume();
    stdin.on('data', onData);
  });
}

/**
 * A secret from standard input: on a terminal, asked for twice without echo (a typo would lock the user out);
 * from a pipe or file, read whole, as `printf '%s' "$PASSWORD" | almanac ...` sends it.
 */
export async function readSecret(what: string): Promise<string> {
  if (!process.stdin.isTTY) return readPiped();
  const first = await promptHidden(`${what}: `);
  const again = await promptHidden(`${what} (again): `);
  if (first !== again) throw usageError(`the two ${what.toLowerCase()}s differ; nothing was changed`);
  return first;
}
