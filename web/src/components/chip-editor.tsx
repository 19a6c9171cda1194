import { refName, type EntityRefView } from '../entity-ref.ts';
import { facetHref } from '../format.ts';
import { EntityPicker } from './entity-picker.tsx';

/**
 * Tags, glossary terms or a domain as named chips, each linking to the datasets that share it; for a caller who may
 * change them, each chip has a remove button and a picker adds one (search-as-you-type over `types`). Chips in `fixed`
 * came from ingestion in a place the mutations do not change (a field's own schema) and cannot be removed here.
 */
export function ChipEditor({
  refs,
  fixed = [],
  field,
  label,
  types,
  what,
  addLabel,
  editable,
  onAdd,
  onRemove,
  empty = '—',
}: {
  refs: readonly EntityRefView[];
  fixed?: readonly EntityRefView[];
  field: string;
  label: string;
  types: readonly string[];
  what: string;
  /** The picker's accessible name: "Add tag", "Add term to email". */
  addLabel: string;
  editable: boolean;
  onAdd: (urn: string) => void;
  onRemove: (urn: string) => void;
  empty?: string;
}) {
  const shown = [...fixed, ...refs.filter((r) => !fixed.some((f) => f.urn === r.urn))];
  return (
    <div class="chip-editor">
      {shown.length === 0 ? (
        <span class="muted">{empty}</span>
      ) : (
        <ul class={`chips chips-${field}`} aria-label={label}>
          {shown.map((r) => (
            <li>
              <a href={facetHref(field, r.urn)} title={r.urn}>
                {refName(r)}
              </a>
              {editable && !fixed.some((f) => f.urn === r.urn) && (
                <button
                  class="chip-remove"
                  aria-label={`Remove ${what} ${refName(r)}`}
                  title={`Remove ${refName(r)}`}
                  onClick={() => onRemove(r.urn)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && <EntityPicker label={addLabel} types={types} placeholder={`${addLabel}…`} onPick={(e) => onAdd(e.urn)} />}
    </div>
  );
}
