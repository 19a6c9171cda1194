import type { EntityRefView } from '../entity-ref.ts';
import { DeprecationBadge, type DeprecationView } from './deprecation-badge.tsx';
import { RefLinks } from './ref-links.tsx';

export interface FieldView {
  fieldPath: string;
  type: string;
  nativeDataType: string | null;
  description: string | null;
  tags: { tags: Array<{ tag: EntityRefView }> | null } | null;
  deprecation: DeprecationView | null;
}

/** A dataset's fields: name, type, description, tags and, for a deprecated field, its note in the open. */
export function SchemaTable({ fields }: { fields: readonly FieldView[] }) {
  return (
    <table class="schema">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Type</th>
          <th scope="col">Description</th>
          <th scope="col">Tags</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr data-field={f.fieldPath}>
            <td>
              <code>{f.fieldPath}</code>
            </td>
            <td>
              {f.nativeDataType ?? f.type.toLowerCase()}
              {f.nativeDataType && f.nativeDataType.toUpperCase() !== f.type && <span class="muted"> ({f.type.toLowerCase()})</span>}
            </td>
            <td>{f.description ?? <span class="muted">—</span>}</td>
            <td>
              <RefLinks refs={(f.tags?.tags ?? []).map((t) => t.tag)} field="tags" label={`Tags of ${f.fieldPath}`} />
            </td>
            <td>
              <DeprecationBadge deprecation={f.deprecation} countdown />
              {f.deprecation?.deprecated && f.deprecation.note && <p class="field-note">{f.deprecation.note}</p>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
