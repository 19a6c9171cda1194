import { useLayoutEffect } from 'preact/hooks';

/**
 * While `open`, Escape anywhere on the page calls `close`: how every dialog and editor of the console is dismissed.
 * A layout effect: the listener is there once the dialog is in the page, not after the next paint (an Escape pressed
 * at once was lost).
 */
export function useEscape(open: boolean, close: () => void): void {
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) close();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [open]);
}
