import { allEntitySpecs } from '../../catalog/registry/index.ts';
import { ALMANAC_VERSION } from '../version.ts';

const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const urnParam = { name: 'urn', in: 'path', required: true, schema: { type: 'string' }, description: 'URL-encoded entity urn' };
const typeParam = {
  name: 'entityType',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: allEntitySpecs().map((e) => e.name) },
};
/** The query parameters of the scroll of one entity type, v2 and v3. */
const scrollOfTypeParams = [
  typeParam,
  ...['aspectNames', 'scrollId', 'sort', 'sortCriteria', 'query', 'pitKeepAlive'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
  { name: 'count', in: 'query', schema: { type: 'integer', default: 10, maximum: 10000 } },
  { name: 'sortOrder', in: 'query', schema: { type: 'string', enum: ['ASCENDING', 'DESCENDING'] } },
  ...['systemMetadata', 'skipCache', 'includeSoftDelete'].map((name) => ({ name, in: 'query', schema: { type: 'boolean' } })),
];

/** The OpenAPI 3 description of the v3 entity endpoints Almanac serves. */
export function openapiDocument(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Almanac entity API (DataHub OpenAPI v3 compatible)', version: ALMANAC_VERSION },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          properties: { exceptionClass: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
          required: ['message', 'status'],
        },
        AspectEnvelope: {
          type: 'object',
          properties: { value: { type: 'object' }, systemMetadata: { type: 'object', nullable: true } },
          required: ['value'],
        },
        Entity: {
          type: 'object',
          properties: { urn: { type: 'string' } },
          required: ['urn'],
          additionalProperties: { $ref: '#/components/schemas/AspectEnvelope' },
        },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/openapi/v3/entity/{entityType}': {
        get: {
          summary:
            "Scroll entities of one type (DataHub v3), query in DataHub's query language: {entities: [{urn, <aspect>: {value}}], scrollId, totalCount}; scrollId null once done",
          parameters: scrollOfTypeParams,
          responses: { '200': { description: 'One page' }, '400': error },
        },
        post: {
          summary: 'Upsert aspects of one or more entities',
          parameters: [typeParam],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Entity' } } } },
          },
          responses: {
            '200': {
              description: 'The entities as stored',
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Entity' } } } },
            },
            '400': error,
            '401': error,
            '422': error,
          },
        },
      },
      '/openapi/v3/entity/{entityType}/{urn}': {
        get: {
          summary: 'Read an entity',
          parameters: [typeParam, urnParam],
          responses: {
            '200': { description: 'The entity', content: { 'application/json': { schema: { $ref: '#/components/schemas/Entity' } } } },
            '404': error,
          },
        },
        delete: {
          summary: 'Delete an entity, its aspect history and its timeseries rows',
          parameters: [typeParam, urnParam],
          responses: { '200': { description: 'Deleted' }, '404': error },
        },
      },
      '/openapi/v2/entity/{entityType}': {
        get: {
          summary: 'Scroll entities of one type (DataHub v2): {scrollId?, results: [{urn, aspects: {name: {value}}}]}; no scrollId once done',
          parameters: scrollOfTypeParams,
          responses: { '200': { description: 'One page' }, '400': error },
        },
      },
      '/openapi/v3/entity/scroll': {
        post: {
          summary:
            'Scroll entities of any types (DataHub v3): body {entities?, aspects?, filter?, sortCriteria?}; answers {entities, scrollId, totalCount}; scrollId null once done',
          parameters: [
            ...['query', 'scrollId', 'sort', 'sortCriteria', 'pitKeepAlive'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
            { name: 'count', in: 'query', schema: { type: 'integer', default: 10, maximum: 10000 } },
            { name: 'sortOrder', in: 'query', schema: { type: 'string', enum: ['ASCENDING', 'DESCENDING'] } },
            ...['systemMetadata', 'skipCache', 'skipAggregation', 'includeSoftDelete'].map((name) => ({
              name,
              in: 'query',
              schema: { type: 'boolean' },
            })),
          ],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '200': { description: 'One page' }, '400': error },
        },
      },
      '/openapi/v3/entity/{entityType}/batchGet': {
        post: {
          summary: 'Read several entities of one type: body [{urn, <aspect>: {}}]; the entities that exist, with the aspects named (all when none)',
          parameters: [typeParam, { name: 'systemMetadata', in: 'query', schema: { type: 'boolean' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } },
          responses: {
            '200': {
              description: 'The entities',
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Entity' } } } },
            },
            '400': error,
          },
        },
      },
      '/openapi/v2/entity/batch/{entityType}': {
        post: {
          summary:
            'Read several entities of one type (DataHub v2): body {urns, aspectNames?, withSystemMetadata?}; answers {entities: [{urn, aspects}]}',
          parameters: [typeParam],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '200': { description: 'The entities that exist' }, '400': error },
        },
      },
      '/openapi/v2/entity/{entityType}/{urn}': {
        get: {
          summary: 'Read an entity (DataHub v2 form)',
          parameters: [typeParam, urnParam],
          responses: { '200': { description: '{urn, aspects}' }, '404': error },
        },
      },
      '/openapi/v3/entity/{entityType}/{urn}/{aspect}': {
        post: {
          summary: 'Write one aspect (versioned or timeseries) of an entity',
          parameters: [typeParam, urnParam, { name: 'aspect', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AspectEnvelope' } } } },
          responses: {
            '200': { description: 'Written' },
            '201': { description: 'Written; the entity was new' },
            '400': error,
            '404': error,
            '422': error,
          },
        },
      },
    },
  };
}
