// The loopback load generator of the GraphQL benchmark, run as its own process so
// that it never shares an event loop with the server it measures. Reads one
// LoadJob as JSON from argv and prints one LoadResult as JSON.
import autocannon from 'autocannon';
import { bodyOf, type LoadJob, type LoadResult } from './graphql-workload.ts';

const job = JSON.parse(process.argv[2] ?? '') as LoadJob;
let seq = 0;
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${job.token}` },
  requests: [{ setupRequest: (req) => ({ ...req, body: bodyOf(job, seq++) }) }],
});
const out: LoadResult = {
  requests: result.requests.total,
  perSecond: result.requests.total / (result.duration || job.seconds),
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(out)}\n`);
