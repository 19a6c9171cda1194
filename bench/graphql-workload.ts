// What the GraphQL benchmark sends (bench/wrk-load.lua builds the same bodies in wrk).

export interface LoadJob {
  readonly url: string;
  readonly token: string;
  readonly connections: number;
  readonly seconds: number;
  /** Each request's body is generated from its sequence number. */
  readonly body: { readonly kind: 'floor' | 'query' | 'update'; readonly datasets: number };
}

/** The cheapest authenticated GraphQL request: what HTTP, auth and GraphQL cost before any data is read. */
export const FLOOR = '{ __typename }';
export const QUERY = 'query getDataset($urn: String!) { dataset(urn: $urn) { deprecation { deprecated decommissionTime } } }';
export const UPDATE = 'mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }';
export const benchUrn = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_${i},PROD)`;

/** Reads are spread over the whole catalog; every write changes the value, so each one makes a new version. */
export function bodyOf(job: LoadJob, seq: number): string {
  // A multiplicative step visits the datasets in a scattered order.
  const urn = benchUrn((seq * 7919) % job.body.datasets);
  if (job.body.kind === 'floor') return JSON.stringify({ query: FLOOR, variables: { urn } });
  if (job.body.kind === 'query') return JSON.stringify({ query: QUERY, variables: { urn } });
  return JSON.stringify({ query: UPDATE, variables: { input: { urn, deprecated: seq % 2 === 0, note: `bench write ${seq}` } } });
}
