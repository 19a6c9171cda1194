import { useEffect, useState } from 'preact/hooks';

/**
 * A page's reads: `load` runs again whenever a key changes (the urn, a reload counter), and an answer that arrives
 * after the page moved on is dropped. `value` is undefined until the first answer.
 */
export function useLoaded<T>(load: () => Promise<T>, keys: readonly unknown[]): { value: T | undefined; error: unknown } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (v) => {
        if (!live) return;
        setValue(v);
        setError(null);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, keys);
  return { value, error };
}
