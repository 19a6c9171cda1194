import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * GraphiQL for people, served entirely from this process: the UMD bundles of
 * graphiql 4 and React 18 come from node_modules, so the page works offline and
 * loads nothing from a CDN (the CSP forbids other origins anyway).
 */
const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

const INIT_SCRIPT = `(function () {
  var root = document.getElementById('graphiql');
  // Signed in to the web console in this tab? Then its session token is used (key shared with web/src/session.ts).
  // GraphiQL introspects before the Headers tab exists, so the fetcher carries the token too.
  var token = window.sessionStorage.getItem('almanac.token');
  var fetcher = GraphiQL.createFetcher({
    url: root.getAttribute('data-endpoint'),
    headers: token ? { Authorization: 'Bearer ' + token } : {},
  });
  var query = [
    '# Signed in to the console in this tab? You are ready. Otherwise put a personal access token',
    '# in the Headers tab below, then re-fetch the schema (the circular arrows on the left) and run.',
    'query getDataset {',
    '  dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)") {',
    '    urn',
    '    deprecation { deprecated decommissionTime note actor }',
    '  }',
    '}',
    '',
  ].join('\\n');
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: query,
      defaultHeaders: JSON.stringify({ Authorization: 'Bearer ' + (token || '<personal access token>') }, null, 2),
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
`;

interface Asset {
  readonly type: string;
  load(): Promise<Buffer>;
}

const file = (pkg: string, rel: string, type: string): Asset => ({ type, load: () => fs.readFile(path.join(packageDir(pkg), rel)) });

const ASSETS: Readonly<Record<string, Asset>> = {
  'react.production.min.js': file('react', 'umd/react.production.min.js', 'text/javascript; charset=utf-8'),
  'react-dom.production.min.js': file('react-dom', 'umd/react-dom.production.min.js', 'text/javascript; charset=utf-8'),
  'graphiql.min.js': file('graphiql', 'graphiql.min.js', 'text/javascript; charset=utf-8'),
  'graphiql.min.css': file('graphiql', 'graphiql.min.css', 'text/css; charset=utf-8'),
  'init.js': { type: 'text/javascript; charset=utf-8', load: async () => Buffer.from(INIT_SCRIPT) },
};

// GraphiQL styles some elements inline; everything else must come from this origin.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

const page = (assets: string, endpoint: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Almanac GraphiQL</title>
<link rel="stylesheet" href="${assets}/graphiql.min.css">
</head>
<body style="margin:0">
<div id="graphiql" style="height:100vh" data-endpoint="${endpoint}">Loading GraphiQL…</div>
<script src="${assets}/react.production.min.js"></script>
<script src="${assets}/react-dom.production.min.js"></script>
<script src="${assets}/graphiql.min.js"></script>
<script src="${assets}/init.js"></script>
</body>
</html>
`;

/** `GET /api/graphiql` and its assets; public, like any static page (queries still need a token). */
export function registerGraphiql(app: FastifyInstance): void {
  const loaded = new Map<string, Promise<Buffer>>();

  app.get('/api/graphiql', { config: { public: true } }, async (req, reply) => {
    // Paths come from the registered route (/api/graphiql or /api/gms/api/graphiql), never from the raw url.
    const base = req.routeOptions.url ?? '/api/graphiql';
    return reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .send(page(`${base}/assets`, base.replace(/graphiql$/, 'graphql')));
  });

  app.get<{ Params: { name: string } }>('/api/graphiql/assets/:name', { config: { public: true } }, async (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    let body = loaded.get(req.params.name);
    if (!body) {
      body = asset.load();
      loaded.set(req.params.name, body);
      body.catch(() => loaded.delete(req.params.name));
    }
    return reply
      .type(asset.type)
      .header('Cache-Control', 'public, max-age=3600')
      .header('X-Content-Type-Options', 'nosniff')
      .send(await body);
  });
}
