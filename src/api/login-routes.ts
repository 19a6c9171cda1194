import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../catalog/errors.ts';
import type { AppContext } from './context.ts';

/**
 * `POST /logIn` (DataHub frontend's path) with `{"username","password"}`: answers
 * a short-lived SESSION token for the console to send as a bearer token.
 */
export const loginRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.post('/logIn', { config: { public: true } }, async (req) => {
      const body = req.body as { username?: unknown; password?: unknown } | undefined;
      if (typeof body?.username !== 'string') throw badRequest("Field 'username' is required and must be a string");
      if (typeof body.password !== 'string') throw badRequest("Field 'password' is required and must be a string");
      const session = await ctx.login.login(body.username, body.password);
      return { accessToken: session.token, actorUrn: session.actorUrn, expiresAt: session.expiresAt, type: 'SESSION' };
    });
  };
