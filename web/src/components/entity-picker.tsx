import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { REF_FIELDS, refName, type EntityRefView } from '../entity-ref.ts';
import { singular } from '../entity-kinds.ts';

const SUGGEST = `query suggest($input: AutoCompleteMultipleInput!) {
  autoCompleteForMultiple(input: $input) { suggestions { type entities { ...ref } } }
}
${REF_FIELDS}`;

/** Suggestions per type the picker shows at most. */
const PER_TYPE = 6;

/** Entities whose names start with the words typed, as DataHub's autocomplete finds them; one request per pause in typing. */
function useSuggestions(text: string, types: readonly string[] | undefined): { entities: EntityRefView[]; error: unknown } {
  const [entities, setEntities] = useState<EntityRefView[]>([]);
  const [error, setError] = useState<unknown>(null);
  const typesKey = (types ?? []).join(',');
  useEffect(() => {
    if (text.trim() === '') {
      setEntities([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      gql<{ autoCompleteForMultiple: { suggestions: Array<{ type: string; entities: EntityRefView[] }> } }>(SUGGEST, {
        input: { query: text, limit: PER_TYPE, ...(types ? { types } : {}) },
      }).then(
        (d) => {
          if (!live) return;
          setEntities(d.autoCompleteForMultiple.suggestions.flatMap((s) => s.entities));
          setError(null);
        },
        (e: unknown) => live && setError(e),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, typesKey]);
  return { entities, error };
}

/**
 * A search-as-you-type box (an ARIA combobox): suggestions of the given entity types appear while typing, arrows move
 * through them, Enter or a click picks one, Escape closes the list. With `onEnter`, Enter on no suggestion hands over
 * the text (the header's search box searches with it).
 */
export function EntityPicker({
  label,
  types,
  placeholder,
  onPick,
  onEnter,
  inputRef,
  id,
}: {
  label: string;
  types?: readonly string[];
  placeholder?: string;
  onPick: (entity: EntityRefView) => void;
  onEnter?: (text: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  id?: string;
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { entities, error } = useSuggestions(text, types);
  const listId = `${id ?? label.replace(/\W+/g, '-').toLowerCase()}-options`;
  const shown = open && text.trim() !== '';

  const pick = (e: EntityRefView) => {
    setText('');
    setOpen(false);
    setActive(-1);
    onPick(e);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      const n = entities.length;
      if (n > 0) setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = active >= 0 ? entities[active] : undefined;
      if (chosen) pick(chosen);
      else if (onEnter && text.trim() !== '') {
        setOpen(false);
        onEnter(text.trim());
      } else if (entities.length === 1) pick(entities[0]!);
    } else if (e.key === 'Escape' && shown) {
      // Closes the list only; a dialog around the picker closes on the next Escape.
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div class="picker">
      <input
        ref={inputRef}
        id={id}
        type="search"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
        autocomplete="off"
        placeholder={placeholder}
        value={text}
        onInput={(e) => {
          setText((e.target as HTMLInputElement).value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
      />
      {shown && (
        <ul class="suggestions" role="listbox" id={listId} aria-label={`${label}: suggestions`}>
          {error ? (
            <li class="error" role="option" aria-disabled="true" aria-selected="false">
              {error instanceof Error ? error.message : String(error)}
            </li>
          ) : entities.length === 0 ? (
            <li class="muted" role="option" aria-disabled="true" aria-selected="false">
              No match yet.
            </li>
          ) : (
            entities.map((e, i) => (
              <li
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                class={i === active ? 'active' : undefined}
                onMouseDown={(ev) => {
                  ev.preventDefault();
                  pick(e);
                }}
              >
                <span class="name">{refName(e)}</span> <span class="badge badge-type">{singular(e.type)}</span>
                <div class="muted small urn">{e.urn}</div>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
