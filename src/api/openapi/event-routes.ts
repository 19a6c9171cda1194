import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import type { PollQuery } from '../../catalog/events/event-poll.ts';
import type { Topic } from '../../catalog/events/change-log.ts';
import type { Operation } from '../../auth/operations.ts';
import type { AppContext } from '../context.ts';

/** ExternalEventsController.isAuthorizedToGetEvents: GET_TOPIC_EVENTS reads any topic, the others one kind each. */
const READ_OPERATION: Record<Topic, Operation> = {
  PlatformEvent_v1: 'readPlatformEvents',
  MetadataChangeLog_Versioned_v1: 'readChangeLogEvents',
  MetadataChangeLog_Timeseries_v1: 'readChangeLogEvents',
};

const PARAMS = new Set(['topic', 'offsetId', 'limit', 'pollTimeoutSeconds', 'lookbackWindowDays']);

/** DataHub's events API (ExternalEventsController.poll): the change log's topics, read from an offset, with a long poll. */
export const eventRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/openapi/v1/events/poll', async (req) => {
      const query: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.query)) {
        if (!PARAMS.has(name)) throw badRequest(`Unknown query parameter '${name}'; this route takes ${[...PARAMS].join(', ')}`);
        if (Array.isArray(value)) throw badRequest(`Parameter '${name}' is given more than once`);
        if (value !== undefined) query[name] = value;
      }
      return ctx.eventPoll.poll(query as PollQuery, (topic) => ctx.authorizer.require(req.principal, READ_OPERATION[topic]));
    });
  };
