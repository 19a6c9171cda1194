import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SignedIn } from '../../auth/login.ts';
import { clearedSessionCookies, sessionCookies } from '../../auth/session-cookies.ts';
import { badRequest } from '../../catalog/errors.ts';
import type { AppContext } from '../context.ts';
import { refuseCrossSiteSignIn } from '../cross-site.ts';

type Body = Record<string, unknown> | undefined;

const stringField = (body: Body, name: string, required: boolean): string | undefined => {
  const value = body?.[name];
  if (value === undefined || value === null) {
    if (required) throw badRequest(`Field '${name}' is required and must be a string`);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`Field '${name}' must be a string`);
  return value;
};

/**
 * DataHub frontend's sign-in paths. `POST /logIn` and `POST /signUp` answer the
 * session as JSON (for the console) and set DataHub's session cookies (for
 * clients such as `datahub init`, which carry them to /api/v2/graphql);
 * `/logOut` ends the session and clears them.
 */
export const loginRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // Secure whenever the browser reached us over TLS, or ALMANAC_PUBLIC_URL / AUTH_COOKIE_SECURE say it does.
    const secure = (req: FastifyRequest) => ctx.config.sessions.cookieSecure || req.protocol === 'https';
    const startSession = (req: FastifyRequest, reply: FastifyReply, session: SignedIn) => {
      const maxAgeSeconds = Math.floor(ctx.tokens.sessionTtlMillis / 1000);
      reply.header('Set-Cookie', sessionCookies(session.token, session.actorUrn, { maxAgeSeconds, secure: secure(req) }));
      return { accessToken: session.token, actorUrn: session.actorUrn, expiresAt: session.expiresAt, type: 'SESSION' };
    };

    app.post('/logIn', { config: { public: true } }, async (req, reply) => {
      refuseCrossSiteSignIn(req, ctx.config.publicUrl);
      const body = req.body as Body;
      const username = stringField(body, 'username', true)!;
      const password = stringField(body, 'password', true)!;
      return startSession(req, reply, await ctx.login.login(username, password, req.ip));
    });

    app.post('/signUp', { config: { public: true } }, async (req, reply) => {
      refuseCrossSiteSignIn(req, ctx.config.publicUrl);
      const body = req.body as Body;
      const urn = await ctx.users.invitations.signUp(
        {
          fullName: stringField(body, 'fullName', true)!,
          email: stringField(body, 'email', true)!,
          title: stringField(body, 'title', false),
          password: stringField(body, 'password', true)!,
          inviteToken: stringField(body, 'inviteToken', true)!,
        },
        ctx.config.passwords,
      );
      return startSession(req, reply, await ctx.login.session(urn));
    });

    // Public, as DataHub's: signing out with an ended or missing session still clears the cookies.
    const logOut = async (req: FastifyRequest, reply: FastifyReply) => {
      const principal = await ctx.authenticator.authenticate(req.headers.authorization, req.headers.cookie).catch(() => undefined);
      if (principal && principal.kind === 'user' && principal.tokenId === undefined && ctx.config.authEnabled) {
        await ctx.login.endSessions(principal.actorUrn);
      }
      reply.header('Set-Cookie', clearedSessionCookies(secure(req)));
      // DataHub's GET redirects the browser to its login page; the console signs in at its root.
      if (req.method === 'GET') return reply.redirect('/', 303);
      return reply.code(204).send();
    };
    app.get('/logOut', { config: { public: true } }, logOut);
    app.post('/logOut', { config: { public: true } }, logOut);
  };
