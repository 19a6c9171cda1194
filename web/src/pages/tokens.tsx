import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { formatDateTime } from '../format.ts';
import type { Me } from '../me.ts';

interface TokenMeta {
  id: string;
  name: string;
  description: string | null;
  actorUrn: string;
  createdAt: number;
  expiresAt: number | null;
}

const DURATIONS = ['ONE_HOUR', 'ONE_DAY', 'ONE_WEEK', 'ONE_MONTH', 'THREE_MONTHS', 'SIX_MONTHS', 'ONE_YEAR', 'NO_EXPIRY'];

/** Create a personal access token (shown once), list yours, revoke one. */
export function TokensPage({ me }: { me: Me | null }) {
  const [tokens, setTokens] = useState<TokenMeta[]>([]);
  const [name, setName] = useState('');
  const [duration, setDuration] = useState('ONE_MONTH');
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    gql<{ listAccessTokens: { tokens: TokenMeta[] } }>(
      'query list($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total tokens { id name description actorUrn createdAt expiresAt } } }',
      { input: { start: 0, count: 100 } },
    ).then((d) => setTokens(d.listAccessTokens.tokens), setError);
  }, [reload]);

  const create = async (e: Event) => {
    e.preventDefault();
    if (!me) return;
    setError(null);
    try {
      const d = await gql<{ createAccessToken: { accessToken: string } }>(
        'mutation create($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { id } } }',
        { input: { type: 'PERSONAL', actorUrn: me.urn, duration, name } },
      );
      setCreated(d.createAccessToken.accessToken);
      setName('');
      setReload(reload + 1);
    } catch (err) {
      setError(err);
    }
  };
  const revoke = async (id: string) => {
    try {
      await gql('mutation revoke($id: String!) { revokeAccessToken(tokenId: $id) }', { id });
      setReload(reload + 1);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <main>
      <h1>Access tokens</h1>
      <form class="panel" onSubmit={create} aria-label="Create an access token">
        <label>
          Name
          <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required />
        </label>
        <label>
          Expires after
          <select value={duration} onChange={(e) => setDuration((e.target as HTMLSelectElement).value)}>
            {DURATIONS.map((d) => (
              <option value={d}>{d.replace(/_/g, ' ').toLowerCase()}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Create token
        </button>
      </form>
      {created && (
        <div class="panel created" role="status">
          <p>Copy this token now: it is shown only once.</p>
          <code class="token">{created}</code>
        </div>
      )}
      <ErrorBox error={error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Acts as</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span class="sr-only">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr>
              <td>{t.name}</td>
              <td>{t.actorUrn}</td>
              <td>{formatDateTime(t.createdAt)}</td>
              <td>{t.expiresAt === null ? 'never' : formatDateTime(t.expiresAt)}</td>
              <td>
                <button onClick={() => revoke(t.id)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
