import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../catalog/errors.ts';
import { parseCategories } from '../../catalog/timeline/categories.ts';
import type { AppContext } from '../context.ts';
import { intParam, type ActionBody } from '../restli/params.ts';

const PARAMETERS = ['categories', 'startTime', 'endTime', 'raw', 'includeVersionSet'];

/** `categories=A&categories=B` or `categories=A,B` (what the `datahub timeline` CLI sends), as Spring reads both. */
function categoryValues(value: unknown): string[] {
  if (value === undefined) throw badRequest("Parameter 'categories' is required");
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v) => typeof v === 'string')) throw badRequest("Parameter 'categories' must be a list of strings");
  return values as string[];
}

/** Spring's boolean conversion, case-insensitive: the CLI's `--raw` sends Python's `raw=True`. */
const SPRING_BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  on: true,
  yes: true,
  '1': true,
  false: false,
  off: false,
  no: false,
  '0': false,
};

function springBoolean(query: Record<string, unknown>, name: string): boolean | undefined {
  const v = query[name];
  if (v === undefined || v === '') return undefined;
  const parsed = typeof v === 'string' ? SPRING_BOOLEANS[v.toLowerCase()] : undefined;
  if (parsed === undefined) throw badRequest(`Parameter '${name}' must be a boolean (true or false), got ${JSON.stringify(v)}`);
  return parsed;
}

/**
 * DataHub's timeline read, `GET /openapi/v2/timeline/v1/{urn}`: the entity's change transactions in the categories
 * asked for. Like DataHub with its default `restApiAuthorization: false`, any authenticated caller may read it.
 */
export const timelineRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const { timeline } = ctx;
    app.get<{ Params: { urn: string }; Querystring: Record<string, unknown> }>('/openapi/v2/timeline/v1/:urn', async (req) => {
      const q = req.query as ActionBody;
      const extra = Object.keys(q).find((k) => !PARAMETERS.includes(k));
      if (extra !== undefined) throw badRequest(`Unknown query parameter '${extra}'; this route takes ${PARAMETERS.join(', ')}`);
      // Merging the timelines of a version set (the CLI's --include-version-set) is not done; refused rather than ignored.
      if (springBoolean(q, 'includeVersionSet')) throw badRequest("Parameter 'includeVersionSet' is not supported: version sets are not merged");
      return timeline.timeline({
        urn: req.params.urn,
        categories: parseCategories(categoryValues(q.categories)),
        startTime: intParam(q, 'startTime') ?? -1,
        endTime: intParam(q, 'endTime') ?? 0,
        raw: springBoolean(q, 'raw') ?? false,
      });
    });
  };
