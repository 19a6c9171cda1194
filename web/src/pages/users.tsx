import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { TableHead } from '../components/table-head.tsx';
import { useMutations } from '../use-mutations.ts';

interface User {
  urn: string;
  username: string;
  status: 'ACTIVE' | 'SUSPENDED' | null;
  properties: { displayName: string | null } | null;
}

const ROLES = ['Reader', 'Editor', 'Admin'];
const PAGE = 50;

/** Users (DataHub's listUsers, updateUserStatus, removeUser, createInviteToken): Admins only. */
export function UsersPage() {
  const [users, setUsers] = useState<User[]>([]);
  const [total, setTotal] = useState(0);
  const [query, setQuery] = useState('');
  const [role, setRole] = useState('Reader');
  const [invite, setInvite] = useState<string | null>(null);
  const { error, setError, reload, run } = useMutations();

  useEffect(() => {
    gql<{ listUsers: { total: number; users: User[] } }>(
      'query listUsers($input: ListUsersInput!) { listUsers(input: $input) { total users { urn username status properties { displayName } } } }',
      { input: { start: 0, count: PAGE, query } },
    ).then((d) => {
      setUsers(d.listUsers.users);
      setTotal(d.listUsers.total);
    }, setError);
  }, [reload, query]);

  const setStatus = (urn: string, status: 'ACTIVE' | 'SUSPENDED') =>
    run(() =>
      gql('mutation updateUserStatus($urn: String!, $status: CorpUserStatus!) { updateUserStatus(urn: $urn, status: $status) }', { urn, status }),
    );
  const remove = (u: User) => {
    if (!confirm(`Remove ${u.username}? Their tokens and sessions stop working at once; what they own stays.`)) return;
    void run(() => gql('mutation removeUser($urn: String!) { removeUser(urn: $urn) }', { urn: u.urn }));
  };
  const createInvite = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const d = await gql<{ createInviteToken: { inviteToken: string } }>(
        'mutation createInviteToken($input: CreateInviteTokenInput!) { createInviteToken(input: $input) { inviteToken } }',
        { input: { roleUrn: `urn:li:dataHubRole:${role}` } },
      );
      setInvite(d.createInviteToken.inviteToken);
    });
  };

  return (
    <main>
      <h1>Users</h1>
      <form class="panel" onSubmit={createInvite} aria-label="Invite a user">
        <label>
          Role for new users
          <select value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
            {ROLES.map((r) => (
              <option value={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit">Create invite token</button>
      </form>
      {invite && (
        <div class="panel created" role="status" aria-label="Invite token">
          <p>Send this invite token to the people who should sign up (POST /signUp with it); a new one replaces it.</p>
          <code class="token">{invite}</code>
        </div>
      )}
      <label>
        Search users
        <input type="search" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
      </label>
      <ErrorBox error={error} />
      <p>
        {total} user{total === 1 ? '' : 's'}
        {total > PAGE ? `, the first ${PAGE} shown` : ''}
      </p>
      <table class="users">
        <TableHead columns={['User', 'Name', 'Status']} />
        <tbody>
          {users.map((u) => (
            <tr data-user={u.username}>
              <td>{u.username}</td>
              <td>{u.properties?.displayName ?? ''}</td>
              <td class="status">{u.status === 'SUSPENDED' ? 'Suspended' : 'Active'}</td>
              <td>
                {u.status === 'SUSPENDED' ? (
                  <button onClick={() => setStatus(u.urn, 'ACTIVE')} aria-label={`Reactivate ${u.username}`}>
                    Reactivate
                  </button>
                ) : (
                  <button onClick={() => setStatus(u.urn, 'SUSPENDED')} aria-label={`Suspend ${u.username}`}>
                    Suspend
                  </button>
                )}
                <button onClick={() => remove(u)} aria-label={`Remove ${u.username}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
