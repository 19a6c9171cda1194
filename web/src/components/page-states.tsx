import { ErrorBox } from './error-box.tsx';

/** A page whose reads failed: the server's message, and what to do about it. */
export function LoadFailed({ error, what }: { error: unknown; what: string }) {
  return (
    <main>
      <ErrorBox error={error} />
      <p class="muted">The {what} could not be read. Reload the page to try again; if it persists, check the address.</p>
    </main>
  );
}

export const Loading = () => <main aria-busy="true">Loading…</main>;

/** A page of something not stored: says so, and where to look instead. */
export function NotFound({ what }: { what: string }) {
  return (
    <main>
      <h1>Not found</h1>
      <p>{what}</p>
      <p>
        <a href="#/search">Search</a> for it by name instead.
      </p>
    </main>
  );
}
