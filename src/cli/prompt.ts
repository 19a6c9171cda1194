/** Asks one question on the terminal (stderr) and returns the answer; only call it when stdin is a terminal. */
export async function ask(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

export const interactive = (): boolean => process.stdin.isTTY === true;
