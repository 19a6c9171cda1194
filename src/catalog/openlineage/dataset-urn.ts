import { isObject, type OlDataset } from './event.ts';

/** DataHub's PLATFORM_MAP: URI schemes whose DataHub platform has another name. */
const PLATFORM_MAP: Readonly<Record<string, string>> = { awsathena: 'athena', sqlserver: 'mssql' };

/** HdfsPathDataset's HdfsPlatform: file-system schemes and the platform each becomes (anything else unknown is hdfs). */
const FS_PLATFORMS: Readonly<Record<string, string>> = {
  s3: 's3',
  s3a: 's3',
  s3n: 's3',
  gs: 'gcs',
  gcs: 'gcs',
  abfs: 'abs',
  abfss: 'abs',
  wasb: 'abs',
  wasbs: 'abs',
  dbfs: 'dbfs',
  file: 'file',
  hdfs: 'hdfs',
};

const SCHEME_SEPARATOR = '://';
const TABLE_PREFIX = 'table/';
/** Datasets are PROD unless configured otherwise in DataHub; Almanac has no such setting. */
export const DATASET_ENV = 'PROD';

export const datasetUrn = (platform: string, name: string): string => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${DATASET_ENV})`;

/**
 * A file-system path as HdfsPathDataset names it: the scheme picks the platform, the rest after `://` (trailing
 * slashes stripped) is the name, its leading slash removed except on `file`, which keeps it.
 */
function fsDataset(uri: string): { platform: string; name: string } {
  const path = uri.replace(/\/+$/, '');
  const parts = path.split(SCHEME_SEPARATOR);
  if (parts.length !== 2) return { platform: 'hdfs', name: path };
  const platform = FS_PLATFORMS[parts[0]!] ?? 'hdfs';
  const rest = parts[1]!;
  return { platform, name: platform === 'file' ? rest : rest.replace(/^\//, '') };
}

/** DataHub's getDatasetUrnFromOlDataset without configuration: namespace to platform, name kept (paths normalized). */
function urnFromNamespace(namespace: string, name: string): string {
  if (!namespace.includes(SCHEME_SEPARATOR)) return datasetUrn(namespace, name);
  const joined = namespace.endsWith('/') || name.startsWith('/') ? namespace + name : `${namespace}/${name}`;
  const scheme = joined.slice(0, joined.indexOf(SCHEME_SEPARATOR)).toLowerCase();
  const platform = PLATFORM_MAP[scheme] ?? scheme;
  if (FS_PLATFORMS[platform] !== undefined) {
    const fs = fsDataset(joined);
    return datasetUrn(fs.platform, fs.name);
  }
  return datasetUrn(platform, name);
}

/**
 * The dataset urn DataHub's converter gives an OpenLineage dataset: a `symlinks` facet's TABLE identifier wins (a
 * Glue namespace becomes platform `glue`, any other `hive`, and `table/db/t` becomes `db.t`), else the namespace.
 */
export function olDatasetUrn(dataset: Pick<OlDataset, 'namespace' | 'name' | 'facets'>): string {
  const identifiers = isObject(dataset.facets.symlinks) ? dataset.facets.symlinks.identifiers : undefined;
  let namespace = dataset.namespace;
  let name = dataset.name;
  if (Array.isArray(identifiers)) {
    for (const id of identifiers) {
      if (!isObject(id) || id.type !== 'TABLE' || typeof id.namespace !== 'string' || typeof id.name !== 'string') continue;
      namespace = id.namespace.startsWith('aws:glue:') || id.namespace.startsWith('arn:aws:glue:') ? 'glue' : 'hive';
      name = id.name.startsWith(TABLE_PREFIX) ? id.name.slice(TABLE_PREFIX.length).replaceAll('/', '.') : id.name;
    }
  }
  return urnFromNamespace(namespace, name);
}

/** The urn of one column, as DataHub's fine-grained lineage names it. */
export const schemaFieldUrn = (datasetUrnValue: string, field: string): string => `urn:li:schemaField:(${datasetUrnValue},${field})`;

/** The platform urn of a dataset urn (what schemaMetadata.platform holds). */
export const platformOf = (urn: string): string => urn.slice('urn:li:dataset:('.length, urn.indexOf(','));
