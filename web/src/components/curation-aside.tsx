import * as curation from '../curation.ts';
import type { EditPrivileges } from '../curation.ts';
import type { EntityRefView } from '../entity-ref.ts';
import { ChipEditor } from './chip-editor.tsx';
import { OwnersEditor, type OwnerView } from './owners-editor.tsx';

/**
 * An entity's owners, tags, glossary terms and domain; each editable by a caller whose privileges allow it, through
 * DataHub's mutations. `run` performs an edit and re-reads the page (use-mutations.ts).
 */
export function CurationAside({
  urn,
  owners,
  tags,
  terms,
  domain,
  privileges,
  run,
}: {
  urn: string;
  owners: readonly OwnerView[];
  tags: readonly EntityRefView[];
  terms: readonly EntityRefView[];
  domain: EntityRefView | null;
  privileges: EditPrivileges;
  run: (edit: () => Promise<unknown>) => void;
}) {
  const target = { urn };
  return (
    <aside aria-label="Ownership and classification">
      <h2>Owners</h2>
      <OwnersEditor
        owners={owners}
        editable={privileges.canEditOwners}
        onAdd={(owner, type) => run(() => curation.addOwner(urn, owner, type))}
        onRemove={(owner, type) => run(() => curation.removeOwner(urn, owner, type))}
      />
      <h2>Tags</h2>
      <ChipEditor
        refs={tags}
        field="tags"
        label="Tags"
        types={['TAG']}
        what="tag"
        addLabel="Add tag"
        editable={privileges.canEditTags}
        onAdd={(u) => run(() => curation.addTag(target, u))}
        onRemove={(u) => run(() => curation.removeTag(target, u))}
        empty="No tags."
      />
      <h2>Glossary terms</h2>
      <ChipEditor
        refs={terms}
        field="glossaryTerms"
        label="Glossary terms"
        types={['GLOSSARY_TERM']}
        what="term"
        addLabel="Add glossary term"
        editable={privileges.canEditGlossaryTerms}
        onAdd={(u) => run(() => curation.addTerm(target, u))}
        onRemove={(u) => run(() => curation.removeTerm(target, u))}
        empty="No terms."
      />
      <h2>Domain</h2>
      <ChipEditor
        refs={domain ? [domain] : []}
        field="domains"
        label="Domain"
        types={['DOMAIN']}
        what="domain"
        addLabel={domain ? 'Move to domain' : 'Set domain'}
        editable={privileges.canEditDomains}
        onAdd={(u) => run(() => curation.setDomain(urn, u))}
        onRemove={() => run(() => curation.unsetDomain(urn))}
        empty="No domain."
      />
    </aside>
  );
}
