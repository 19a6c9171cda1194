import { useEffect, useState } from 'preact/hooks';
import type { WebhookDeliveryWire, WebhookSubscriptionWire } from '../../../src/api/wire/webhooks.ts';
import { gql } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { TableHead } from '../components/table-head.tsx';
import { formatDateTime } from '../format.ts';
import { useMutations } from '../use-mutations.ts';

const READ = `query webhooks {
  listWebhookSubscriptions { id url categories entityTypes createdBy createdAt }
  webhookDeliveries(count: 25) { total deliveries { id subscriptionId state attempts lastStatusCode lastError deliveredAt nextAttemptAt entityUrn category } }
}`;
const CREATE = `mutation create($input: CreateWebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { secret subscription { id } } }`;
const DELETE = 'mutation remove($id: String!) { deleteWebhookSubscription(id: $id) }';

/** Webhook subscriptions to change events (MANAGE_WEBHOOKS_PRIVILEGE): create one (its secret shown once), delete, and the delivery log. */
export function WebhooksPage() {
  const [subs, setSubs] = useState<WebhookSubscriptionWire[]>([]);
  const [log, setLog] = useState<{ total: number; deliveries: WebhookDeliveryWire[] } | null>(null);
  const [url, setUrl] = useState('');
  const [deprecationOnly, setDeprecationOnly] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const { error, setError, reload, run } = useMutations();

  useEffect(() => {
    document.title = 'Webhooks · Almanac';
    gql<{ listWebhookSubscriptions: WebhookSubscriptionWire[]; webhookDeliveries: { total: number; deliveries: WebhookDeliveryWire[] } }>(
      READ,
      {},
    ).then((d) => {
      setSubs(d.listWebhookSubscriptions);
      setLog(d.webhookDeliveries);
    }, setError);
  }, [reload]);

  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const input = { url: url.trim(), ...(deprecationOnly ? { categories: ['DEPRECATION'] } : {}) };
      const d = await gql<{ createWebhookSubscription: { secret: string } }>(CREATE, { input });
      setSecret(d.createWebhookSubscription.secret);
      setUrl('');
    });
  };
  const remove = (s: WebhookSubscriptionWire) => {
    if (!confirm(`Delete the webhook to ${s.url}? Its pending deliveries go with it.`)) return;
    void run(() => gql(DELETE, { id: s.id }));
  };

  return (
    <main>
      <h1>Webhooks</h1>
      <p class="muted">
        Change events (deprecations, truncation and retention runs) are POSTed to each subscription as DataHub's EntityChangeEvent_v1, signed with its
        secret (X-Almanac-Signature-256).
      </p>
      <form class="panel" onSubmit={create} aria-label="Add a webhook">
        <label>
          URL
          <input
            name="webhook-url"
            type="url"
            value={url}
            onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            placeholder="https://hooks.example.com/almanac"
            required
          />
        </label>
        <label class="inline">
          <input type="checkbox" checked={deprecationOnly} onChange={(e) => setDeprecationOnly((e.target as HTMLInputElement).checked)} />
          Deprecation events only
        </label>
        <button type="submit" class="primary">
          Add webhook
        </button>
      </form>
      {secret && (
        <section class="banner" role="status" aria-label="Webhook secret">
          <strong>Signing secret, shown this once:</strong> <code>{secret}</code>
        </section>
      )}
      <ErrorBox error={error} />
      <table class="webhooks">
        <TableHead columns={['URL', 'Events', 'Created']} />
        <tbody>
          {subs.map((s) => (
            <tr data-webhook={s.id}>
              <td>{s.url}</td>
              <td>
                {s.categories?.join(', ') ?? 'all'}
                {s.entityTypes ? ` on ${s.entityTypes.join(', ')}` : ''}
              </td>
              <td>
                {formatDateTime(s.createdAt)} by {s.createdBy}
              </td>
              <td>
                <button onClick={() => remove(s)} aria-label={`Delete webhook to ${s.url}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Deliveries</h2>
      {log && log.total === 0 && <p>None yet.</p>}
      {log && log.total > 0 && (
        <table class="webhook-deliveries">
          <TableHead columns={['Event', 'State', 'Attempts', 'Last status', 'Last error', 'When']} />
          <tbody>
            {log.deliveries.map((d) => (
              <tr data-delivery={d.id}>
                <td>
                  {d.category} {d.entityUrn}
                </td>
                <td class={`state-${d.state}`}>{d.state}</td>
                <td>{d.attempts}</td>
                <td>{d.lastStatusCode ?? '–'}</td>
                <td>{d.lastError ?? '–'}</td>
                <td>{d.state === 'pending' ? `next ${formatDateTime(d.nextAttemptAt)}` : formatDateTime(d.deliveredAt ?? d.nextAttemptAt)}</td>
                <td />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
