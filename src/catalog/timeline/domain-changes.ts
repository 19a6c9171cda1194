import type { ChangeDiffer, ChangeEvent } from './change-event.ts';
import { objectList, urnId } from './change-event.ts';
import { sourceDetails } from './association-changes.ts';

/** The entity's domain: the first of its `domains`, as DataHub's single-domain contract has it. */
const domainOf = (value: Record<string, unknown> | undefined): string | undefined => {
  const domains = value?.domains;
  return Array.isArray(domains) && typeof domains[0] === 'string' ? domains[0] : undefined;
};

/**
 * DOMAIN changes (DataHub's SingleDomainChangeEventGenerator): only the first domain counts; setting it is an ADD,
 * clearing it a REMOVE, replacing it a REMOVE of the old then an ADD of the new, each MINOR. The parameters carry the
 * domain's association context and attribution from `domainAssociations`, when it has them.
 */
export const domainChanges: ChangeDiffer = (before, after, entityUrn) => {
  const was = domainOf(before);
  const is = domainOf(after);
  if (was === is) return [];
  const event = (domainUrn: string, value: Record<string, unknown> | undefined, operation: 'ADD' | 'REMOVE'): ChangeEvent => {
    const association = objectList(value?.domainAssociations).find((a) => a.domain === domainUrn) ?? {};
    return {
      entityUrn,
      category: 'DOMAIN',
      operation,
      modifier: domainUrn,
      parameters: {
        domainUrn,
        context: typeof association.context === 'string' ? association.context : '{}',
        sourceDetails: sourceDetails(association),
      },
      semVerChange: 'MINOR',
      description: `Domain '${urnId(domainUrn)}' ${operation === 'ADD' ? 'added to' : 'removed from'} entity '${entityUrn}'.`,
    };
  };
  return [...(was === undefined ? [] : [event(was, before, 'REMOVE')]), ...(is === undefined ? [] : [event(is, after, 'ADD')])];
};
