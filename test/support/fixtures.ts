/** A MetadataChangeProposal exactly as the Python REST emitter sends it: the aspect serialized into a string. */
export const mcp = (urn: string, aspectName: string, value: unknown, entityType = 'dataset') => ({
  entityType,
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});

/** A PATCH proposal exactly as acryl-datahub 1.7's patch builders send it: the patch serialized into aspect.value. */
export const patchMcp = (urn: string, aspectName: string, patch: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'PATCH',
  aspectName,
  aspect: { value: JSON.stringify(patch), contentType: 'application/json-patch+json' },
  systemMetadata: { lastObserved: 1795463012387, runId: 'no-run-id-provided', properties: { clientId: 'acryl-datahub', clientVersion: '1.7.0.17' } },
});
