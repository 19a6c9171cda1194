import { z } from 'zod';
import { auditStamp, changeAuditStamps, globalTagsSchema, glossaryTermsSchema, long, pegasusUnion, stringMap, timeStamp, urn } from './common.ts';

/**
 * Versioned aspects from `metadata-models/src/main/pegasus/com/linkedin/…`.
 * Required/optional follows the PDL; fields with a Pegasus default are optional
 * here (DataHub stores what the client sent), except `status.removed`, whose
 * default is materialised because readers treat a missing flag as "not removed".
 */

/** common/Status.pdl */
export const status = z.looseObject({ removed: z.boolean().default(false) });

/** dataset/DatasetProperties.pdl (+ CustomProperties, ExternalReference) */
export const datasetProperties = z.looseObject({
  customProperties: stringMap().optional(),
  externalUrl: z.string().optional(),
  name: z.string().optional(),
  qualifiedName: z.string().optional(),
  description: z.string().optional(),
  uri: z.string().optional(),
  created: timeStamp().optional(),
  lastModified: timeStamp().optional(),
  tags: z.array(z.string()).optional(),
});

/** schema/SchemaField.pdl */
const schemaField = z.looseObject({
  fieldPath: z.string(),
  jsonPath: z.string().optional(),
  nullable: z.boolean().optional(),
  description: z.string().optional(),
  label: z.string().optional(),
  created: auditStamp().optional(),
  lastModified: auditStamp().optional(),
  // SchemaFieldDataType is a record wrapping a union, e.g. {"type": {"com.linkedin.schema.StringType": {}}}.
  type: z.looseObject({ type: pegasusUnion() }),
  nativeDataType: z.string(),
  recursive: z.boolean().optional(),
  globalTags: globalTagsSchema.optional(),
  glossaryTerms: glossaryTermsSchema.optional(),
  isPartOfKey: z.boolean().optional(),
  isPartitioningKey: z.boolean().optional(),
  jsonProps: z.string().optional(),
});

/** schema/SchemaMetadata.pdl (includes SchemaMetadataKey and ChangeAuditStamps) */
export const schemaMetadata = z.looseObject({
  schemaName: z.string(),
  platform: urn(),
  version: long(),
  created: auditStamp().optional(),
  lastModified: auditStamp().optional(),
  deleted: auditStamp().optional(),
  dataset: urn().optional(),
  cluster: z.string().optional(),
  hash: z.string(),
  platformSchema: pegasusUnion(),
  fields: z.array(schemaField),
  primaryKeys: z.array(z.string()).optional(),
  foreignKeysSpecs: z.record(z.string(), z.unknown()).optional(),
  foreignKeys: z
    .array(
      z.looseObject({
        name: z.string(),
        foreignFields: z.array(urn()),
        sourceFields: z.array(urn()),
        foreignDataset: urn(),
      }),
    )
    .optional(),
});

/** common/Deprecation.pdl */
export const deprecation = z.looseObject({
  deprecated: z.boolean(),
  decommissionTime: long().optional(),
  note: z.string(),
  actor: urn(),
  replacement: urn().optional(),
});

/**
 * common/Ownership.pdl. `Owner.type` is required in the PDL but deprecated in
 * favour of `typeUrn`, so newer clients may send only `typeUrn`.
 */
export const ownership = z.looseObject({
  owners: z.array(
    z.looseObject({
      owner: urn(),
      type: z.string().optional(),
      typeUrn: urn().optional(),
      source: z.looseObject({ type: z.string(), url: z.string().optional() }).optional(),
    }),
  ),
  ownerTypes: z.record(z.string(), z.array(urn())).optional(),
  lastModified: auditStamp().optional(),
});

/** common/GlobalTags.pdl */
export const globalTags = globalTagsSchema;

/** common/GlossaryTerms.pdl */
export const glossaryTerms = glossaryTermsSchema;

/** identity/CorpUserInfo.pdl */
export const corpUserInfo = z.looseObject({
  customProperties: stringMap().optional(),
  active: z.boolean(),
  displayName: z.string().optional(),
  email: z.string().optional(),
  title: z.string().optional(),
  managerUrn: urn().optional(),
  departmentId: long().optional(),
  departmentName: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  fullName: z.string().optional(),
  countryCode: z.string().optional(),
  system: z.boolean().optional(),
});

/** dataplatform/DataPlatformInfo.pdl */
export const PLATFORM_TYPES = [
  'FILE_SYSTEM',
  'KEY_VALUE_STORE',
  'MESSAGE_BROKER',
  'OBJECT_STORE',
  'OLAP_DATASTORE',
  'OTHERS',
  'QUERY_ENGINE',
  'RELATIONAL_DB',
  'SEARCH_ENGINE',
] as const;
export const dataPlatformInfo = z.looseObject({
  // `@validate.strlen.max = 15` in the PDL.
  name: z.string().max(15),
  displayName: z.string().optional(),
  type: z.enum(PLATFORM_TYPES),
  datasetNameDelimiter: z.string(),
  logoUrl: z.string().optional(),
});

/** identity/CorpGroupInfo.pdl: admins/members/groups are deprecated but still required. */
export const corpGroupInfo = z.looseObject({
  displayName: z.string().optional(),
  email: z.string().optional(),
  admins: z.array(urn()),
  members: z.array(urn()),
  groups: z.array(urn()),
  description: z.string().optional(),
  slack: z.string().optional(),
});

/** Common fields of the *Info aspects (CustomProperties + ExternalReference). */
const customAndExternal = {
  customProperties: stringMap().optional(),
  externalUrl: z.string().optional(),
};

/** chart/ChartInfo.pdl */
export const chartInfo = z.looseObject({
  ...customAndExternal,
  title: z.string(),
  description: z.string(),
  lastModified: changeAuditStamps(),
  chartUrl: z.string().optional(),
  // union[DatasetUrn]: clients differ on the envelope, so elements are not checked.
  inputs: z.array(z.unknown()).optional(),
  type: z.string().optional(),
  access: z.string().optional(),
  lastRefreshed: long().optional(),
});

/** dashboard/DashboardInfo.pdl */
export const dashboardInfo = z.looseObject({
  ...customAndExternal,
  title: z.string(),
  description: z.string(),
  charts: z.array(urn()).optional(),
  datasets: z.array(urn()).optional(),
  lastModified: changeAuditStamps(),
  dashboardUrl: z.string().optional(),
  access: z.string().optional(),
  lastRefreshed: long().optional(),
});

/** datajob/DataFlowInfo.pdl */
export const dataFlowInfo = z.looseObject({
  ...customAndExternal,
  name: z.string(),
  description: z.string().optional(),
  project: z.string().optional(),
  created: timeStamp().optional(),
  lastModified: timeStamp().optional(),
});

/**
 * datajob/DataJobInfo.pdl. `type` is `union[AzkabanJobType, string]`; clients
 * send the union envelope (`{"string": "COMMAND"}`), older ones a bare string.
 */
export const dataJobInfo = z.looseObject({
  ...customAndExternal,
  name: z.string(),
  description: z.string().optional(),
  type: z.union([z.string(), pegasusUnion()]),
  flowUrn: urn().optional(),
  created: timeStamp().optional(),
  lastModified: timeStamp().optional(),
});

/** container/ContainerProperties.pdl */
export const containerProperties = z.looseObject({
  ...customAndExternal,
  name: z.string(),
  qualifiedName: z.string().optional(),
  description: z.string().optional(),
  created: timeStamp().optional(),
  lastModified: timeStamp().optional(),
});

/** common/SubTypes.pdl */
export const subTypes = z.looseObject({ typeNames: z.array(z.string()) });

/** container/Container.pdl: the parent container of an entity. */
export const container = z.looseObject({ container: urn() });

/** common/DataPlatformInstance.pdl */
export const dataPlatformInstance = z.looseObject({ platform: urn(), instance: urn().optional() });

/** common/BrowsePathsV2.pdl */
export const browsePathsV2 = z.looseObject({
  path: z.array(z.looseObject({ id: z.string(), urn: urn().optional() })),
});
