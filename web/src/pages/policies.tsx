import { useEffect, useState } from 'preact/hooks';
import { gql } from '../api.ts';
import { ErrorBox } from '../components/error-box.tsx';
import { TableHead } from '../components/table-head.tsx';
import { useMutations } from '../use-mutations.ts';

interface Policy {
  urn: string;
  type: 'PLATFORM' | 'METADATA';
  name: string;
  state: 'ACTIVE' | 'INACTIVE' | 'DRAFT';
  description: string | null;
  privileges: string[];
  editable: boolean;
  actors: { users: string[] | null; groups: string[] | null; resourceOwners: boolean; allUsers: boolean; allGroups: boolean };
  resources: { filter: { criteria: Array<{ field: string; condition: string; values: Array<{ value: string }> }> } | null } | null;
}

const FIELDS =
  'urn type name state description privileges editable actors { users groups resourceOwners allUsers allGroups } resources { filter { criteria { field condition values { value } } } }';
/** The metadata privileges Almanac enforces, as DataHub names them. */
const PRIVILEGES = ['EDIT_DEPRECATION_PRIVILEGE', 'EDIT_ENTITY'];

/** The policy as DataHub's updatePolicy takes it back (PolicyUpdateInput), with another state. */
function asInput(p: Policy, state: Policy['state']) {
  const criteria = p.resources?.filter?.criteria.map((c) => ({ field: c.field, condition: c.condition, values: c.values.map((v) => v.value) }));
  return {
    type: p.type,
    name: p.name,
    state,
    description: p.description,
    privileges: p.privileges,
    actors: {
      users: p.actors.users ?? [],
      groups: p.actors.groups ?? [],
      resourceOwners: p.actors.resourceOwners,
      allUsers: p.actors.allUsers,
      allGroups: p.actors.allGroups,
    },
    ...(criteria ? { resources: { filter: { criteria } } } : {}),
  };
}

const who = (p: Policy): string =>
  [
    ...(p.actors.allUsers ? ['all users'] : []),
    ...(p.actors.allGroups ? ['all groups'] : []),
    ...(p.actors.resourceOwners ? ['owners'] : []),
    ...(p.actors.users ?? []),
    ...(p.actors.groups ?? []),
  ].join(', ');
const onWhat = (p: Policy): string =>
  p.resources?.filter?.criteria.map((c) => `${c.field} ${c.condition.toLowerCase()} ${c.values.map((v) => v.value).join(', ')}`).join('; ') ||
  'everything';

/** DataHub's access policies (listPolicies, createPolicy, updatePolicy, deletePolicy): Admins only. */
export function PoliciesPage() {
  const [policies, setPolicies] = useState<Policy[]>([]);
  const [name, setName] = useState('');
  const [privilege, setPrivilege] = useState(PRIVILEGES[0]!);
  const [user, setUser] = useState('');
  const [resource, setResource] = useState('');
  const { error, setError, reload, run } = useMutations();

  useEffect(() => {
    gql<{ listPolicies: { policies: Policy[] } }>(
      `query listPolicies($input: ListPoliciesInput!) { listPolicies(input: $input) { total policies { ${FIELDS} } } }`,
      {
        input: { start: 0, count: 100 },
      },
    ).then((d) => setPolicies(d.listPolicies.policies), setError);
  }, [reload]);

  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await gql('mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }', {
        input: {
          type: 'METADATA',
          name,
          state: 'ACTIVE',
          privileges: [privilege],
          actors: { users: [user.trim()], resourceOwners: false, allUsers: false, allGroups: false },
          ...(resource.trim() ? { resources: { filter: { criteria: [{ field: 'URN', condition: 'EQUALS', values: [resource.trim()] }] } } } : {}),
        },
      });
      setName('');
      setUser('');
      setResource('');
    });
  };
  const setState = (p: Policy, state: Policy['state']) =>
    run(() =>
      gql('mutation updatePolicy($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }', {
        urn: p.urn,
        input: asInput(p, state),
      }),
    );
  const remove = (p: Policy) => {
    if (!confirm(`Delete the policy "${p.name}"? It stops applying at once.`)) return;
    void run(() => gql('mutation deletePolicy($urn: String!) { deletePolicy(urn: $urn) }', { urn: p.urn }));
  };

  return (
    <main>
      <h1>Policies</h1>
      <form class="panel" onSubmit={create} aria-label="Create a policy">
        <label>
          Name
          <input name="policy-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} required />
        </label>
        <label>
          Privilege
          <select value={privilege} onChange={(e) => setPrivilege((e.target as HTMLSelectElement).value)}>
            {PRIVILEGES.map((p) => (
              <option value={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          For user (urn)
          <input
            name="policy-user"
            value={user}
            onInput={(e) => setUser((e.target as HTMLInputElement).value)}
            placeholder="urn:li:corpuser:…"
            required
          />
        </label>
        <label>
          On entity (urn; empty: every entity)
          <input name="policy-resource" value={resource} onInput={(e) => setResource((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="primary">
          Create policy
        </button>
      </form>
      <ErrorBox error={error} />
      <table class="policies">
        <TableHead columns={['Name', 'Type', 'State', 'Privileges', 'Who', 'On']} />
        <tbody>
          {policies.map((p) => (
            <tr data-policy={p.name}>
              <td>{p.name}</td>
              <td>{p.type}</td>
              <td class="state">{p.state}</td>
              <td>{p.privileges.join(', ')}</td>
              <td>{who(p)}</td>
              <td>{onWhat(p)}</td>
              <td>
                {p.editable && (
                  <>
                    {p.state === 'ACTIVE' ? (
                      <button onClick={() => setState(p, 'INACTIVE')} aria-label={`Deactivate ${p.name}`}>
                        Deactivate
                      </button>
                    ) : (
                      <button onClick={() => setState(p, 'ACTIVE')} aria-label={`Activate ${p.name}`}>
                        Activate
                      </button>
                    )}
                    <button onClick={() => remove(p)} aria-label={`Delete ${p.name}`}>
                      Delete
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
