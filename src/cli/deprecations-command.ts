import { Command } from 'commander';
import { clientOf, withServerOptions } from './global-options.ts';
import { isoDate, printJson, printTable, red, yellow } from './output.ts';

const PAGE = 500;
const LIST = `query deprecations($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    total
    searchResults { entity { urn ... on Dataset {
      deprecationState daysToDecommission
      deprecation { note decommissionTime replacement { urn } }
      ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn } } } }
    } } }
  }
}`;

interface Row {
  urn: string;
  deprecationState: 'DEPRECATED' | 'OVERDUE';
  daysToDecommission: number | null;
  deprecation: { note: string | null; decommissionTime: number | null; replacement: { urn: string } | null };
  ownership: { owners: Array<{ owner: { urn: string } }> | null } | null;
}

/** "12 days left", "due today", "3 days overdue". */
function countdown(days: number | null): string {
  if (days === null) return '-';
  if (days === 0) return yellow('due today');
  if (days > 0) return `${days} day${days === 1 ? '' : 's'} left`;
  return red(`${-days} day${days === -1 ? '' : 's'} overdue`);
}

async function list(opts: { overdue?: boolean }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const states = opts.overdue ? ['OVERDUE'] : ['DEPRECATED', 'OVERDUE'];
  const rows: Row[] = [];
  for (let start = 0; ; start += PAGE) {
    const input = { types: ['DATASET'], query: '*', start, count: PAGE, orFilters: [{ and: [{ field: 'deprecationState', values: states }] }] };
    const data = await client.graphql<{ searchAcrossEntities: { total: number; searchResults: Array<{ entity: Row }> } }>(LIST, { input });
    rows.push(...data.searchAcrossEntities.searchResults.map((r) => r.entity));
    if (rows.length >= data.searchAcrossEntities.total || data.searchAcrossEntities.searchResults.length === 0) break;
  }
  // Soonest decommission first; those without a date last.
  rows.sort((a, b) => (a.deprecation.decommissionTime ?? Infinity) - (b.deprecation.decommissionTime ?? Infinity) || (a.urn < b.urn ? -1 : 1));
  if (json)
    return printJson(
      rows.map((r) => ({
        urn: r.urn,
        state: r.deprecationState,
        daysToDecommission: r.daysToDecommission,
        ...r.deprecation,
        owners: (r.ownership?.owners ?? []).map((o) => o.owner.urn),
      })),
    );
  if (rows.length === 0) {
    process.stdout.write(opts.overdue ? 'No deprecated dataset is past its decommission date.\n' : 'No dataset is deprecated.\n');
    return;
  }
  printTable(
    ['urn', 'note', 'replacement', 'decommission', 'days', 'owners'],
    rows.map((r) => [
      r.urn,
      r.deprecation.note || '-',
      r.deprecation.replacement?.urn ?? '-',
      isoDate(r.deprecation.decommissionTime),
      countdown(r.daysToDecommission),
      (r.ownership?.owners ?? []).map((o) => o.owner.urn.replace(/^urn:li:corp(user|Group):/, '')).join(', ') || '-',
    ]),
  );
}

/** `almanac deprecations [--overdue]`: what is deprecated, and what is past its decommission date. */
export function deprecationsCommand(): Command {
  return withServerOptions(new Command('deprecations'))
    .description('List deprecated datasets: note, replacement, decommission date, days left or overdue, owners')
    .option('--overdue', 'only those past their decommission date')
    .addHelpText('after', '\nExamples:\n  $ almanac deprecations\n  $ almanac deprecations --overdue --json')
    .action(list);
}
