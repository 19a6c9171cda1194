import { useState } from 'preact/hooks';

/**
 * A page's writes: `run` performs one, shows its error if it fails, and bumps `reload` when it succeeds so that the
 * page's reads (effects depending on `reload`) run again.
 */
export function useMutations() {
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const run = async (mutation: () => Promise<unknown>) => {
    setError(null);
    try {
      await mutation();
      setReload((n) => n + 1);
    } catch (err) {
      setError(err);
    }
  };
  return { error, setError, reload, run };
}
