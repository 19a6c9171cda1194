import { useState } from 'preact/hooks';
import type { EditPrivileges, Target } from '../curation.ts';
import type { EntityRefView } from '../entity-ref.ts';
import { ChipEditor } from './chip-editor.tsx';
import { DeprecationBadge, type DeprecationView } from './deprecation-badge.tsx';
import { DescriptionEditor } from './description-editor.tsx';
import { Markdown } from './markdown.tsx';
import { RefLinks } from './ref-links.tsx';

export interface FieldView {
  fieldPath: string;
  type: string;
  nativeDataType: string | null;
  description: string | null;
  tags: { tags: Array<{ tag: EntityRefView }> | null } | null;
  glossaryTerms?: { terms: Array<{ term: EntityRefView }> | null } | null;
  deprecation: DeprecationView | null;
}

/** What people added to a field through the console or DataHub's UI (editableSchemaMetadata), over what ingestion wrote. */
export interface FieldEdits {
  readonly description: string | null;
  readonly tags: readonly EntityRefView[];
  readonly terms: readonly EntityRefView[];
}

/** A field's edits through one of the curation mutations. */
export interface FieldActions {
  readonly privileges: EditPrivileges;
  readonly edits: ReadonlyMap<string, FieldEdits>;
  readonly describe: (t: Target, text: string) => Promise<boolean>;
  readonly addTag: (t: Target, urn: string) => void;
  readonly removeTag: (t: Target, urn: string) => void;
  readonly addTerm: (t: Target, urn: string) => void;
  readonly removeTerm: (t: Target, urn: string) => void;
}

const canEditFields = (p: EditPrivileges) => p.canEditSchemaFieldTags || p.canEditSchemaFieldGlossaryTerms || p.canEditSchemaFieldDescription;

/**
 * A dataset's fields: name, type, description, tags, terms and, for a deprecated field, its note in the open. A
 * caller who may edit fields gets an Edit button per row, which opens that row's editors (only one row at a time, so a
 * schema of hundreds of fields stays light).
 */
export function SchemaTable({ urn, fields, actions }: { urn: string; fields: readonly FieldView[]; actions?: FieldActions }) {
  const [editing, setEditing] = useState<string | null>(null);
  const editable = actions !== undefined && canEditFields(actions.privileges);
  // Its own horizontal scroll on a narrow screen, rather than the page's.
  return (
    <div class="table-scroll">
      <table class="schema">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
            <th scope="col">Tags</th>
            <th scope="col">Terms</th>
            <th scope="col">Status</th>
            {editable && (
              <th scope="col">
                <span class="sr-only">Edit</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const edits = actions?.edits.get(f.fieldPath);
            const target: Target = { urn, fieldPath: f.fieldPath };
            const ingestedTags = (f.tags?.tags ?? []).map((t) => t.tag);
            const ingestedTerms = (f.glossaryTerms?.terms ?? []).map((t) => t.term);
            const open = editable && editing === f.fieldPath;
            const description = edits?.description ?? f.description;
            return (
              <tr data-field={f.fieldPath}>
                <td>
                  <code>{f.fieldPath}</code>
                </td>
                <td>
                  {f.nativeDataType ?? f.type.toLowerCase()}
                  {f.nativeDataType && f.nativeDataType.toUpperCase() !== f.type && <span class="muted"> ({f.type.toLowerCase()})</span>}
                </td>
                <td>
                  {open && actions ? (
                    <DescriptionEditor
                      text={description}
                      label={`description of ${f.fieldPath}`}
                      editable={actions.privileges.canEditSchemaFieldDescription}
                      onSave={(text) => actions.describe(target, text)}
                      empty="—"
                    />
                  ) : description ? (
                    <Markdown text={description} class="markdown field-description" />
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td>
                  {open && actions ? (
                    <ChipEditor
                      refs={edits?.tags ?? []}
                      fixed={ingestedTags}
                      field="tags"
                      label={`Tags of ${f.fieldPath}`}
                      types={['TAG']}
                      what="tag"
                      addLabel={`Add tag to ${f.fieldPath}`}
                      editable={actions.privileges.canEditSchemaFieldTags}
                      onAdd={(u) => actions.addTag(target, u)}
                      onRemove={(u) => actions.removeTag(target, u)}
                    />
                  ) : (
                    <RefLinks refs={[...ingestedTags, ...(edits?.tags ?? [])]} field="tags" label={`Tags of ${f.fieldPath}`} />
                  )}
                </td>
                <td>
                  {open && actions ? (
                    <ChipEditor
                      refs={edits?.terms ?? []}
                      fixed={ingestedTerms}
                      field="glossaryTerms"
                      label={`Terms of ${f.fieldPath}`}
                      types={['GLOSSARY_TERM']}
                      what="term"
                      addLabel={`Add term to ${f.fieldPath}`}
                      editable={actions.privileges.canEditSchemaFieldGlossaryTerms}
                      onAdd={(u) => actions.addTerm(target, u)}
                      onRemove={(u) => actions.removeTerm(target, u)}
                    />
                  ) : (
                    <RefLinks refs={[...ingestedTerms, ...(edits?.terms ?? [])]} field="glossaryTerms" label={`Terms of ${f.fieldPath}`} />
                  )}
                </td>
                <td>
                  <DeprecationBadge deprecation={f.deprecation} countdown />
                  {f.deprecation?.deprecated && f.deprecation.note && <p class="field-note">{f.deprecation.note}</p>}
                </td>
                {editable && (
                  <td>
                    <button class="link-button" aria-expanded={open} onClick={() => setEditing(open ? null : f.fieldPath)}>
                      {open ? 'Done' : 'Edit'}
                      <span class="sr-only"> field {f.fieldPath}</span>
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
