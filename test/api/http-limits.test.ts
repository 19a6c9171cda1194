import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { createSqliteDatabase } from '../support/databases.ts';
import { useServer } from '../support/lifecycle.ts';
import type { TestServer } from '../support/server.ts';

/** A raw client: sends `head` (and optionally a first bit of body), then reports what came back and when the server hung up. */
function rawRequest(url: string, head: string, firstBytes = ''): Promise<{ response: string; closedAfterMillis: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname, () => socket.write(head + firstBytes));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ response, closedAfterMillis: Date.now() - started }));
    socket.setTimeout(10_000, () => socket.destroy(new Error('the server kept the socket open for 10 s')));
  });
}

// These bounds live in the HTTP layer, before any storage: one backend shows them.
const backend = { name: 'sqlite' as const, skip: undefined, create: createSqliteDatabase };

describe('every connection has a bounded cost', () => {
  let server: TestServer;
  useServer(
    backend,
    (s) => {
      server = s;
    },
    { ALMANAC_REQUEST_TIMEOUT_MS: '800', ALMANAC_HEADERS_TIMEOUT_MS: '400' },
  );

  it('answers 401 to a stranger at once and hangs up without reading the announced body', async () => {
    const head = `POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n`;
    const { response, closedAfterMillis } = await rawRequest(server.url, head, '{"proposal":');
    assert.match(response, /^HTTP\/1\.1 401/);
    assert.match(response, /connection: close/i);
    assert.ok(closedAfterMillis < 700, `closed after ${closedAfterMillis} ms`);
  });

  it('times out an authenticated body that trickles, while /health keeps answering', async () => {
    const head = `POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
    const slow = rawRequest(server.url, head, '{"proposal":');
    const t0 = Date.now();
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
    // Not a speed target (those live in bench/): trickling bodies used to make /health unreachable.
    assert.ok(Date.now() - t0 < 1000, '/health answered while a body trickled');
    const { response, closedAfterMillis } = await slow;
    assert.match(response, /^HTTP\/1\.1 408/);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
    assert.deepEqual(body, {
      exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
      message: 'The request was not received in time',
      status: 408,
    });
    assert.ok(closedAfterMillis < 3000, `closed after ${closedAfterMillis} ms`);
  });

  it('hangs up on a client that never finishes its headers', async () => {
    const { response, closedAfterMillis } = await rawRequest(server.url, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    assert.doesNotMatch(response, /^HTTP\/1\.1 200/);
    assert.ok(closedAfterMillis < 3000, `closed after ${closedAfterMillis} ms`);
  });
});
