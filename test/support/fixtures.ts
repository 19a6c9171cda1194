/** A MetadataChangeProposal exactly as the Python REST emitter sends it: the aspect serialized into a string. */
export const mcp = (urn: string, aspectName: string, value: unknown, entityType = 'dataset') => ({
  entityType,
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
});
