import { Command } from 'commander';
import { EMITTED_CATEGORIES } from '../catalog/events/entity-changes.ts';
import type { WebhookDeliveryWire, WebhookSubscriptionWire } from '../api/wire/webhooks.ts';
import { usageError } from './exit-codes.ts';
import { clientOf, withServerOptions } from './global-options.ts';
import { bold, green, isoTime, printJson, printTable, red, yellow } from './output.ts';
import { readSecret } from './read-secret.ts';

const LIST = '{ listWebhookSubscriptions { id url categories entityTypes createdBy createdAt } }';
const CREATE = `mutation create($input: CreateWebhookSubscriptionInput!) {
  createWebhookSubscription(input: $input) { secret subscription { id url categories entityTypes } } }`;
const DELETE = 'mutation remove($id: String!) { deleteWebhookSubscription(id: $id) }';
const DELIVERIES = `query deliveries($id: String, $state: String, $count: Int) { webhookDeliveries(subscriptionId: $id, state: $state, count: $count) {
  total deliveries { id state attempts lastStatusCode lastError deliveredAt nextAttemptAt entityUrn category } } }`;

const csv = (values: string | undefined) =>
  values === undefined
    ? undefined
    : values
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);

async function list(_opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const { listWebhookSubscriptions: subs } = await client.graphql<{ listWebhookSubscriptions: WebhookSubscriptionWire[] }>(LIST, {});
  if (json) return printJson(subs);
  if (subs.length === 0) {
    process.stdout.write('No webhook subscription. Add one with `almanac webhooks create --url <url>`.\n');
    return;
  }
  printTable(
    ['id', 'url', 'categories', 'entity types', 'created'],
    subs.map((s) => [
      s.id,
      s.url,
      s.categories?.join(', ') ?? 'all',
      s.entityTypes?.join(', ') ?? 'all',
      `${isoTime(s.createdAt)} by ${s.createdBy}`,
    ]),
  );
}

interface CreateOptions {
  url: string;
  categories?: string;
  entityTypes?: string;
  secretStdin?: boolean;
}

async function create(opts: CreateOptions, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  // A secret on the command line would land in the shell history: it is read from stdin, or generated.
  const secret = opts.secretStdin ? (await readSecret('Webhook secret')).trim() : undefined;
  if (opts.secretStdin && !secret) throw usageError('--secret-stdin: no secret on standard input');
  const input = {
    url: opts.url,
    ...(secret ? { secret } : {}),
    ...(opts.categories !== undefined ? { categories: csv(opts.categories) } : {}),
    ...(opts.entityTypes !== undefined ? { entityTypes: csv(opts.entityTypes) } : {}),
  };
  const { createWebhookSubscription: created } = await client.graphql<{
    createWebhookSubscription: { secret: string; subscription: WebhookSubscriptionWire };
  }>(CREATE, { input });
  if (json) return printJson(created);
  process.stdout.write(`${green('created')} webhook ${bold(created.subscription.id)} to ${created.subscription.url}\n`);
  if (!secret) process.stdout.write(`signing secret (shown once, keep it now): ${created.secret}\n`);
}

async function remove(id: string, _opts: unknown, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const { deleteWebhookSubscription: deleted } = await client.graphql<{ deleteWebhookSubscription: boolean }>(DELETE, { id });
  if (json) return printJson({ deleted });
  process.stdout.write(deleted ? `${green('deleted')} webhook ${id}\n` : `no webhook ${id}\n`);
}

async function deliveries(opts: { subscription?: string; state?: string; limit: string }, cmd: Command): Promise<void> {
  const { client, json } = clientOf(cmd);
  const count = Number(opts.limit);
  if (!Number.isInteger(count) || count < 1 || count > 1000) throw usageError(`--limit must be an integer from 1 to 1000, got "${opts.limit}"`);
  const { webhookDeliveries: page } = await client.graphql<{ webhookDeliveries: { total: number; deliveries: WebhookDeliveryWire[] } }>(DELIVERIES, {
    id: opts.subscription ?? null,
    state: opts.state ?? null,
    count,
  });
  if (json) return printJson(page);
  const state = (s: string) => (s === 'delivered' ? green(s) : s === 'failed' ? red(s) : yellow(s));
  printTable(
    ['delivery', 'state', 'attempts', 'status', 'last error', 'event', 'when'],
    page.deliveries.map((d) => [
      d.id,
      state(d.state),
      d.attempts,
      d.lastStatusCode ?? '-',
      d.lastError ?? '-',
      `${d.category} ${d.entityUrn}`,
      d.state === 'pending' ? `next ${isoTime(d.nextAttemptAt)}` : isoTime(d.deliveredAt ?? d.nextAttemptAt),
    ]),
  );
  process.stdout.write(`${page.deliveries.length} of ${page.total}\n`);
}

/** `almanac webhooks`: subscriptions to change events and their delivery log (needs MANAGE_WEBHOOKS_PRIVILEGE). */
export function webhookCommands(): Command {
  const webhooks = new Command('webhooks').description('Webhook subscriptions to change events, and their delivery log');
  webhooks.addCommand(withServerOptions(new Command('list')).description('Every subscription (never its secret)').action(list));
  webhooks.addCommand(
    withServerOptions(new Command('create'))
      .description('Subscribe a URL to change events; prints the signing secret once')
      .requiredOption('--url <url>', 'an http or https URL')
      .option('--categories <list>', `only these categories, comma-separated: ${EMITTED_CATEGORIES.join(', ')}`)
      .option('--entity-types <list>', 'only events on these entity types, comma-separated: dataset, dataProcessInstance, ...')
      .option('--secret-stdin', 'read the signing secret (16 to 256 characters) from standard input instead of generating one')
      .addHelpText('after', '\nExample:\n  $ almanac webhooks create --url https://hooks.example.com/almanac --categories DEPRECATION')
      .action(create),
  );
  webhooks.addCommand(
    withServerOptions(new Command('delete')).description('Delete a subscription and its deliveries').argument('<id>').action(remove),
  );
  webhooks.addCommand(
    withServerOptions(new Command('deliveries'))
      .description('The delivery log, newest event first')
      .option('--subscription <id>', 'only this subscription')
      .option('--state <state>', 'pending, delivered or failed')
      .option('--limit <n>', 'at most this many', '50')
      .action(deliveries),
  );
  return webhooks;
}
