import { useState } from 'preact/hooks';
import { OWNERSHIP_TYPES, ownershipTypeLabel } from '../curation.ts';
import { refName, type EntityRefView } from '../entity-ref.ts';
import { facetHref } from '../format.ts';
import { EntityPicker } from './entity-picker.tsx';

export interface OwnerView {
  readonly owner: EntityRefView;
  /** The ownership type's urn, when one is stored or its legacy type names one. */
  readonly typeUrn: string | null;
}

/**
 * Owners with their ownership type; for a caller who may change them, a remove button on each and a picker of people
 * and groups with the ownership type to add one as.
 */
export function OwnersEditor({
  owners,
  editable,
  onAdd,
  onRemove,
}: {
  owners: readonly OwnerView[];
  editable: boolean;
  onAdd: (ownerUrn: string, typeUrn: string) => void;
  onRemove: (ownerUrn: string, typeUrn: string | null) => void;
}) {
  const [typeUrn, setTypeUrn] = useState(OWNERSHIP_TYPES[0]![0]);
  return (
    <div class="chip-editor">
      {owners.length === 0 ? (
        <span class="muted">No owners.</span>
      ) : (
        <ul class="chips chips-owners" aria-label="Owners">
          {owners.map((o) => (
            <li>
              <a href={facetHref('owners', o.owner.urn)} title={o.owner.urn}>
                {refName(o.owner)}
              </a>
              {o.typeUrn && <span class="muted small"> {ownershipTypeLabel(o.typeUrn)}</span>}
              {editable && (
                <button class="chip-remove" aria-label={`Remove owner ${refName(o.owner)}`} onClick={() => onRemove(o.owner.urn, o.typeUrn)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <div class="add-owner">
          <EntityPicker
            label="Add owner"
            types={['CORP_USER', 'CORP_GROUP']}
            placeholder="Add a person or group…"
            onPick={(e) => onAdd(e.urn, typeUrn)}
          />
          <select aria-label="Ownership type" value={typeUrn} onChange={(e) => setTypeUrn((e.target as HTMLSelectElement).value)}>
            {OWNERSHIP_TYPES.map(([urn, label]) => (
              <option value={urn}>{label}</option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
