import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { CatalogError } from '../catalog/errors.ts';

/** Why a request was refused, kept for its access-log line (the response body alone is not in the log). */
const rejections = new WeakMap<FastifyRequest, { code: string; message: string }>();

/**
 * Logs a refused or failed request's reason: the access line carries the message; an unexpected failure
 * also gets its own error line with the stack, which the client never sees.
 */
export function noteFailure(req: FastifyRequest, err: unknown, known: CatalogError | undefined): void {
  if (!known || known.code === 'INTERNAL') req.log.error({ err }, 'request failed');
  rejections.set(req, { code: known?.code ?? 'INTERNAL', message: known?.message ?? (err instanceof Error ? err.message : String(err)) });
}

/**
 * One access-log line per request, when it completes, in place of Fastify's two (arrival and completion):
 * method, route pattern, status, duration, actor and User-Agent, and the refusal's reason. The request id is
 * already on every line through Fastify's child logger. A request at or past `slowMillis` logs at warn.
 * Only the actor's urn is logged: never a header, a body or a query string, where tokens and secrets travel.
 */
export class RequestLogController extends LogController {
  constructor(private readonly slowMillis: number) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: request.url.split('?')[0] }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const durationMs = Math.round(reply.elapsedTime * 100) / 100;
    const rejection = rejections.get(request);
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      durationMs,
      actor: request.principal?.actorUrn ?? null,
      userAgent: request.headers['user-agent'] ?? null,
      ...(rejection ? { code: rejection.code, error: rejection.message } : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (durationMs >= this.slowMillis) reply.log.warn({ ...line, slowMs: this.slowMillis }, 'slow request');
    else reply.log.info(line, 'request completed');
  }
}
