/** Errors are shown where the action happened, never swallowed. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      {error instanceof Error ? error.message : String(error)}
    </div>
  );
}
