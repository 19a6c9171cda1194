import { Command, Option } from 'commander';
import { CliError } from './client.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, dim, printJson, printTable } from './output.ts';

const LIST = `query policies($input: ListPoliciesInput!) {
  listPolicies(input: $input) {
    total
    policies { urn type name state privileges editable actors { users groups allUsers allGroups resourceOwners } resources { type resources filter { criteria { field condition values { value } } } } }
  }
}`;
const CREATE = 'mutation create($input: PolicyUpdateInput!) { createPolicy(input: $input) }';
const DELETE = 'mutation remove($urn: String!) { deletePolicy(urn: $urn) }';

interface PolicyRow {
  urn: string;
  type: string;
  name: string;
  state: string;
  privileges: string[];
  editable: boolean;
  actors: { users: string[] | null; groups: string[] | null; allUsers: boolean; allGroups: boolean; resourceOwners: boolean };
  resources: {
    type: string | null;
    resources: string[] | null;
    filter: { criteria: Array<{ field: string; condition: string; values: Array<{ value: string }> }> | null } | null;
  } | null;
}

const who = (a: PolicyRow['actors']): string =>
  [a.allUsers ? 'all users' : '', a.allGroups ? 'all groups' : '', a.resourceOwners ? 'owners' : '', ...(a.users ?? []), ...(a.groups ?? [])]
    .filter(Boolean)
    .join(', ') || '-';

function on(r: PolicyRow['resources']): string {
  if (!r) return 'all';
  const criteria = r.filter?.criteria?.map((c) => `${c.field} ${c.condition} ${c.values.map((v) => v.value).join('|')}`) ?? [];
  return (
    [r.type ? `TYPE EQUALS ${r.type}` : '', r.resources ? `URN EQUALS ${r.resources.join('|')}` : '', ...criteria].filter(Boolean).join(' and ') ||
    'all'
  );
}

async function list(opts: { query?: string; count: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const data = await client.graphql<{ listPolicies: { total: number; policies: PolicyRow[] } }>(LIST, {
    input: { start: 0, count: Number(opts.count), query: opts.query ?? '' },
  });
  if (json) return printJson(data.listPolicies);
  printTable(
    ['urn', 'name', 'type', 'state', 'privileges', 'actors', 'resources'],
    data.listPolicies.policies.map((p) => [
      p.urn,
      p.editable ? p.name : `${p.name} ${dim('(built in)')}`,
      p.type,
      p.state === 'ACTIVE' ? bold(p.state) : p.state,
      p.privileges.join(', '),
      who(p.actors),
      p.type === 'PLATFORM' ? '-' : on(p.resources),
    ]),
  );
}

interface CreateOptions {
  name: string;
  type: string;
  privilege: string[];
  user: string[];
  group: string[];
  allUsers?: boolean;
  owners?: boolean;
  resource: string[];
  resourceType?: string;
  description?: string;
  inactive?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

async function create(opts: CreateOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  if (opts.privilege.length === 0) throw new CliError('give at least one --privilege');
  const criteria = [
    ...(opts.resource.length > 0 ? [{ field: 'URN', values: opts.resource, condition: 'EQUALS' }] : []),
    ...(opts.resourceType ? [{ field: 'TYPE', values: [opts.resourceType], condition: 'EQUALS' }] : []),
  ];
  const input = {
    type: opts.type.toUpperCase(),
    name: opts.name,
    state: opts.inactive ? 'INACTIVE' : 'ACTIVE',
    description: opts.description ?? '',
    privileges: opts.privilege,
    actors: { users: opts.user, groups: opts.group, allUsers: opts.allUsers === true, allGroups: false, resourceOwners: opts.owners === true },
    ...(criteria.length > 0 ? { resources: { filter: { criteria } } } : {}),
  };
  const data = await client.graphql<{ createPolicy: string }>(CREATE, { input });
  if (json) return printJson({ urn: data.createPolicy });
  process.stdout.write(`${data.createPolicy}\n`);
}

async function remove(urn: string, _opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const data = await client.graphql<{ deletePolicy: string }>(DELETE, { urn });
  if (json) return printJson({ deleted: data.deletePolicy });
  process.stdout.write(`deleted ${data.deletePolicy}\n`);
}

export function policyCommands(): Command {
  const policy = new Command('policy').description('DataHub access policies, granted on top of roles (needs MANAGE_POLICIES)');
  policy.addCommand(
    withServerOptions(new Command('list'))
      .description('Policies, most recently updated first')
      .option('--query <text>', 'only policies whose name or description match')
      .option('--count <n>', 'at most this many', '100')
      .action(list),
  );
  policy.addCommand(
    withServerOptions(new Command('create'))
      .description('Create a policy; prints its urn')
      .requiredOption('--name <name>', 'what the policy is for')
      .addOption(
        new Option('--type <type>', 'METADATA privileges apply to entities, PLATFORM ones to the service')
          .choices(['METADATA', 'PLATFORM', 'metadata', 'platform'])
          .default('METADATA'),
      )
      .option('--privilege <name>', 'a privilege granted, e.g. EDIT_DEPRECATION_PRIVILEGE (repeat for more)', collect, [])
      .option('--user <urn>', 'a user it applies to (repeatable)', collect, [])
      .option('--group <urn>', 'a group whose members it applies to (repeatable)', collect, [])
      .option('--all-users', 'applies to every user')
      .option('--owners', "applies to each entity's owners")
      .option('--resource <urn>', 'only on this entity (repeatable); default: every entity', collect, [])
      .option('--resource-type <type>', 'only on entities of this type, e.g. dataset')
      .option('--description <text>', 'a longer explanation')
      .option('--inactive', 'create it switched off')
      .addHelpText(
        'after',
        "\nExample:\n  $ almanac policy create --name 'Alice deprecates orders' --privilege EDIT_DEPRECATION_PRIVILEGE \\\n      --user urn:li:corpuser:alice --resource 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)'",
      )
      .action(create),
  );
  policy.addCommand(
    withServerOptions(new Command('delete'))
      .description('Delete a policy; it stops applying at once')
      .argument('<urn>', 'the policy urn')
      .action(remove),
  );
  return policy;
}
