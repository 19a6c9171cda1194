import { useState } from 'preact/hooks';

/**
 * A page's writes: `run` performs one, shows its error if it fails, and bumps `reload` when it succeeds so that the
 * page's reads (effects depending on `reload`) run again. It answers whether the write succeeded.
 */
export function useMutations() {
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);
  const run = async (mutation: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await mutation();
      setReload((n) => n + 1);
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };
  return { error, setError, reload, run };
}
