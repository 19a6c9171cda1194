import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CapturedLog, type LogLine } from '../support/captured-log.ts';
import { backends } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

const INFO = 30;
const WARN = 40;
const USER_AGENT = 'acryl-datahub/1.7.0.17 log-test';

for (const backend of await backends()) {
  describe(`request log: ${backend.name}`, { skip: backend.skip }, () => {
    const log = new CapturedLog();
    let server: TestServer;
    useServer(backend, (s) => void (server = s), { LOG_LEVEL: 'info' }, log);
    const call = (id: string, method: string, path: string, body?: unknown) =>
      server.request(method, path, { body, headers: { 'X-Request-Id': id, 'User-Agent': USER_AGENT } });
    const linesOf = (id: string): LogLine[] => log.lines.filter((l) => l.reqId === id);

    it('writes one info line per request with method, route pattern, status, duration, actor and User-Agent', async () => {
      const res = await call('log-ok', 'POST', '/entities?action=exists', { urn: 'urn:li:corpuser:datahub' });
      assert.equal(res.status, 200);
      const line = await log.waitFor((l) => l.reqId === 'log-ok');
      assert.equal(line.level, INFO);
      assert.equal(line.msg, 'request completed');
      assert.equal(line.method, 'POST');
      assert.equal(line.route, '/entities');
      assert.equal(line.status, 200);
      assert.equal(typeof line.durationMs, 'number');
      assert.equal(line.actor, 'urn:li:corpuser:datahub');
      assert.equal(line.userAgent, USER_AGENT);
      assert.deepEqual(
        linesOf('log-ok').map((l) => l.msg),
        ['request completed'],
        'no arrival line at info',
      );
    });

    it('keeps the reason a request was refused, on Rest.li, GraphQL and an unknown path', async () => {
      await call('log-gql', 'POST', '/api/graphql', { variables: {} });
      const gql = await log.waitFor((l) => l.reqId === 'log-gql');
      assert.equal(gql.status, 400);
      assert.equal(gql.code, 'BAD_REQUEST');
      assert.match(String(gql.error), /non-empty "query" string/);

      await call('log-missing', 'GET', '/no/such/route?x=1');
      const missing = await log.waitFor((l) => l.reqId === 'log-missing');
      assert.equal(missing.status, 404);
      assert.equal(missing.route, 'unmatched');
      assert.equal(missing.error, 'No resource for GET /no/such/route');

      await call('log-bad', 'POST', '/entities?action=exists', { urn: 'not-a-urn' });
      const bad = await log.waitFor((l) => l.reqId === 'log-bad');
      assert.equal(bad.status, 400);
      assert.ok(typeof bad.error === 'string' && bad.error !== '', 'the refusal keeps its message');
      assert.equal(linesOf('log-bad').length, 1, 'one line for a refused request');
    });

    it('never writes a token or a password', async () => {
      await server.request('POST', '/logIn', {
        auth: null,
        body: { username: 'datahub', password: 'log-test-secret-pw' },
        headers: { 'X-Request-Id': 'log-login' },
      });
      await log.waitFor((l) => l.reqId === 'log-login');
      await call('log-token', 'GET', `/no/such/route?token=${server.adminToken}`);
      await log.waitFor((l) => l.reqId === 'log-token');
      const all = log.raw.join('\n');
      assert.ok(!all.includes(server.adminToken), 'the bearer token is not logged');
      assert.ok(!all.includes('log-test-secret-pw'), 'the password is not logged');
    });
  });

  describe(`request log, slow threshold: ${backend.name}`, { skip: backend.skip }, () => {
    const log = new CapturedLog();
    let server: TestServer;
    useServer(backend, (s) => void (server = s), { LOG_LEVEL: 'info', ALMANAC_SLOW_REQUEST_MS: '0' }, log);

    it('logs a request at or past ALMANAC_SLOW_REQUEST_MS at warn', async () => {
      await server.request('POST', '/entities?action=exists', { body: { urn: 'urn:li:corpuser:datahub' }, headers: { 'X-Request-Id': 'log-slow' } });
      const line = await log.waitFor((l) => l.reqId === 'log-slow');
      assert.equal(line.level, WARN);
      assert.equal(line.msg, 'slow request');
      assert.equal(line.slowMs, 0);
      assert.equal(line.route, '/entities');
    });
  });
}
