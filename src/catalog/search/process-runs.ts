import type { ReadParts } from '../../storage/store.ts';
import type { EntitySearch } from './entity-search.ts';

/** The page of runs and how many there are. */
export interface ProcessRuns {
  readonly urns: readonly string[];
  readonly total: number;
}

/**
 * The runs of a data job or flow as DataHub's `runs` field lists them: data
 * process instances whose parentTemplate is the job, that are not
 * soft-deleted and have at least one run event (DataHub's hasRunEvents),
 * newest `created` first. It reads every data process instance's relationship
 * and properties aspects, then one run-event lookup per instance of the job.
 */
export async function processRuns(
  search: EntitySearch,
  { timeseries }: Pick<ReadParts, 'timeseries'>,
  templateUrn: string,
  start: number,
  count: number,
): Promise<ProcessRuns> {
  const all = await search.page(
    {
      entityTypes: ['dataProcessInstance'],
      filter: [[{ field: 'parentTemplate', values: [templateUrn] }]],
      includeSoftDeleted: false,
      sort: [{ field: 'created', order: 'DESCENDING' }],
    },
    0,
    Number.MAX_SAFE_INTEGER,
  );
  const withEvents: string[] = [];
  for (const { urn } of all.hits) {
    const events = await timeseries.queryTimeseries({ entityType: 'dataProcessInstance', aspect: 'dataProcessInstanceRunEvent', urn, limit: 1 });
    if (events.length > 0) withEvents.push(urn);
  }
  return { urns: withEvents.slice(start, start + count), total: withEvents.length };
}
