import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { INSTALL_DIR } from '../../config.ts';

// From the installation, not this file: the same whether it runs from src/ or from the bundle in dist/.
const WEB = path.join(INSTALL_DIR, 'web');
const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

/** Builds the console bundle when `npm ci` did not (e.g. install scripts disabled). */
async function ensureBuilt(): Promise<void> {
  try {
    await fs.access(path.join(WEB, 'dist/app.js'));
  } catch {
    const { buildWeb } = (await import(pathToFileURL(path.resolve(WEB, '../scripts/build-web.mjs')).href)) as { buildWeb: () => Promise<void> };
    await buildWeb();
  }
}

/** The web console at `/`: a static page and its bundle; everything it shows comes from the public API. */
export const consoleRoutes = (): FastifyPluginAsync => async (app) => {
  await ensureBuilt();
  const index = await fs.readFile(path.join(WEB, 'index.html'));
  const assets = new Map<string, Buffer>();
  for (const name of Object.keys(ASSETS)) assets.set(name, await fs.readFile(path.join(WEB, 'dist', name)));

  app.get('/', { config: { public: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'").send(index),
  );
  app.get<{ Params: { name: string } }>('/console/assets/:name', { config: { public: true } }, async (req, reply) => {
    const body = assets.get(req.params.name);
    if (!body) return reply.callNotFound();
    return reply.type(ASSETS[req.params.name]!).header('Cache-Control', 'no-cache').send(body);
  });
};
