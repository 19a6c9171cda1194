import { ingest, mcp } from './graphql.ts';
import type { TestServer } from './server.ts';

/** Returns once the clock has moved past now: versions written after it get a later createdOn than those before. */
export async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

/** A schemaMetadata value with these fields, as `[fieldPath, nativeDataType]`. */
export const schema = (...fields: Array<[string, string]>) => ({
  schemaName: 'timeline',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: fields.map(([fieldPath, nativeDataType]) => ({ fieldPath, nativeDataType, type: { type: { 'com.linkedin.schema.StringType': {} } } })),
});

/** Writes each batch of aspects as its own version, each at a later millisecond than the one before. */
export async function writeVersions(server: TestServer, urn: string, ...batches: Array<Record<string, unknown>>): Promise<void> {
  for (const batch of batches) {
    await nextMillisecond();
    // The entity type is the urn's (urn:li:<type>:...).
    await ingest(server, ...Object.entries(batch).map(([aspect, value]) => mcp(urn, aspect, value, urn.split(':')[2])));
  }
  await nextMillisecond();
}
