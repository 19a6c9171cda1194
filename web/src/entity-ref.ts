/** The GraphQL selection every reference to an entity (a person, tag, term, domain, platform, dashboard, ...) reads for its name. */
export const REF_FIELDS = `fragment ref on Entity {
  urn type
  ... on CorpUser { username properties { displayName } }
  ... on CorpGroup { name properties { displayName } }
  ... on Tag { name properties { name } }
  ... on GlossaryTerm { name properties { name } }
  ... on GlossaryNode { properties { name } }
  ... on Domain { id properties { name } }
  ... on DataPlatform { name properties { displayName } }
  ... on Dataset { name properties { name } }
  ... on Dashboard { dashboardId properties { name } }
  ... on Chart { chartId properties { name } }
  ... on DataFlow { flowId properties { name } }
  ... on DataJob { jobId properties { name } }
  ... on Container { properties { name } }
  ... on DataProduct { properties { name } }
  ... on MLModel { name }
}`;

export interface EntityRefView {
  urn: string;
  type: string;
  username?: string;
  name?: string;
  id?: string;
  dashboardId?: string;
  chartId?: string;
  flowId?: string;
  jobId?: string;
  properties?: { displayName?: string | null; name?: string | null } | null;
}

/** A person's display name, a tag's or term's name: what a reader recognises, never a raw urn when a name exists. */
export function refName(e: EntityRefView | null | undefined, fallbackUrn = ''): string {
  if (!e) return fallbackUrn.slice(fallbackUrn.lastIndexOf(':') + 1);
  return (
    e.properties?.displayName || e.properties?.name || e.username || e.name || e.id || e.dashboardId || e.chartId || e.flowId || e.jobId || e.urn
  );
}
