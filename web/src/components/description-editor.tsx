import { useState } from 'preact/hooks';
import { useEscape } from '../use-escape.ts';
import { Markdown } from './markdown.tsx';

/**
 * A description rendered from Markdown; for a caller who may change it, Edit opens a text box (Escape or Cancel
 * closes it unchanged) and Save sends it.
 */
export function DescriptionEditor({
  text,
  label,
  editable,
  onSave,
  empty = 'No description.',
}: {
  text: string | null;
  label: string;
  editable: boolean;
  /** Answers whether it was saved; the text box stays open with the draft when not. */
  onSave: (text: string) => Promise<boolean>;
  empty?: string;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEscape(draft !== null, () => setDraft(null));
  if (draft !== null) {
    return (
      <form
        class="description-form"
        aria-label={`Edit ${label}`}
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            if (await onSave(draft)) setDraft(null);
          } finally {
            setBusy(false);
          }
        }}
      >
        <textarea aria-label={label} value={draft} rows={6} onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)} autoFocus />
        <p class="muted small">Markdown: **bold**, _italic_, `code`, [links](https://…), lists and tables.</p>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Save
          </button>
          <button type="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </div>
      </form>
    );
  }
  return (
    <div class="description-view">
      {text ? <Markdown text={text} class="description markdown" /> : <p class="description muted">{empty}</p>}
      {editable && (
        <button class="link-button" aria-label={`Edit ${label}`} onClick={() => setDraft(text ?? '')}>
          Edit
        </button>
      )}
    </div>
  );
}
