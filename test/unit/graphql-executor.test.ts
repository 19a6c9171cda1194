import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema } from 'graphql';
import { GraphqlExecutor } from '../../src/api/graphql/executor.ts';
import type { GraphqlContext } from '../../src/api/graphql/schema.ts';
import { longScalar } from '../../src/api/graphql/long.ts';
import { notFound } from '../../src/catalog/errors.ts';

// A schema whose resolvers misbehave on purpose: faults the real API's stored data cannot produce
// (ingestion validates it), but a bug could.
const schema = buildSchema(`
  scalar Long
  type Query { broken: Thing, huge: Long, missing: String, fine(n: Long!): Long }
  type Thing { name: String! }
`);
Object.assign(schema.getType('Long')!, longScalar);
const roots: Record<string, () => unknown> = {
  broken: () => ({ name: null }),
  huge: () => 2 ** 60,
  missing: () => {
    throw notFound('No such thing');
  },
};
for (const [name, resolve] of Object.entries(roots)) schema.getQueryType()!.getFields()[name]!.resolve = resolve;
schema.getQueryType()!.getFields().fine!.resolve = (_s, args: { n: number }) => args.n;

const executor = new GraphqlExecutor(schema);

async function run(query: string, variables: Record<string, unknown> = {}) {
  const unexpected: unknown[] = [];
  const response = await executor.run({ query, variables }, {} as GraphqlContext, (err) => unexpected.push(err));
  return { response, unexpected };
}

describe('the GraphQL executor', () => {
  it('masks a null for a non-null field as a server error and reports it for the log', async () => {
    const { response, unexpected } = await run('{ broken { name } }');
    assert.deepEqual(
      response.errors?.map((e) => [e.message, e.extensions, e.path]),
      [['An unknown error occurred.', { code: 500, type: 'SERVER_ERROR' }, ['broken', 'name']]],
    );
    assert.deepEqual(response.data, { broken: null });
    assert.equal(unexpected.length, 1);
  });

  it('masks a value the output type cannot represent', async () => {
    const { response, unexpected } = await run('{ huge }');
    assert.deepEqual(
      response.errors?.map((e) => [e.message, e.extensions.type]),
      [['An unknown error occurred.', 'SERVER_ERROR']],
    );
    assert.equal(unexpected.length, 1);
  });

  it("passes a domain error's code and message through, unlogged", async () => {
    const { response, unexpected } = await run('{ missing }');
    assert.deepEqual(
      response.errors?.map((e) => [e.message, e.extensions]),
      [['No such thing', { code: 404, type: 'NOT_FOUND' }]],
    );
    assert.equal(unexpected.length, 0);
  });

  it('answers a bad variable as BAD_REQUEST naming it, without running anything', async () => {
    const { response } = await run('query q($n: Long!) { fine(n: $n) }', { n: 'soon' });
    assert.equal('data' in response, false);
    assert.match(response.errors?.[0]?.message ?? '', /^Variable "\$n" got invalid value "soon"; Long cannot represent a non-integer value/);
    assert.deepEqual(response.errors?.[0]?.extensions, { code: 400, type: 'BAD_REQUEST' });
  });

  it('runs the same query text again from its cache with other variables', async () => {
    assert.deepEqual((await run('query q($n: Long!) { fine(n: $n) }', { n: 1 })).response.data, { fine: 1 });
    assert.deepEqual((await run('query q($n: Long!) { fine(n: $n) }', { n: '2' })).response.data, { fine: 2 });
  });
});
