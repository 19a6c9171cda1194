import type { Json } from '../../storage/store.ts';
import { objects } from './associations.ts';
import { num, str } from './entity-fields.ts';
import type { GraphqlContext, GraphqlModule } from './schema.ts';

/** A training run's properties (mlTrainingRunProperties), given to the types holding the aspect by entity-aspect-fields.ts. */
const typeDefs = /* GraphQL */ `
  type MLHyperParam {
    name: String
    description: String
    value: String
    createdAt: Long
  }

  type MLMetric {
    name: String
    description: String
    value: String
    createdAt: Long
  }

  type MLTrainingRunProperties {
    id: String
    outputUrls: [String]
    hyperParams: [MLHyperParam]
    trainingMetrics: [MLMetric]
  }
`;

const param = (p: Json) => ({ name: str(p.name), description: str(p.description), value: str(p.value), createdAt: num(p.createdAt) });

export function mlTrainingRunProperties(_ctx: GraphqlContext, value: Json | undefined) {
  if (!value) return null;
  return {
    id: str(value.id),
    outputUrls: Array.isArray(value.outputUrls) ? value.outputUrls.filter((u) => typeof u === 'string') : null,
    hyperParams: objects(value.hyperParams).map(param),
    trainingMetrics: objects(value.trainingMetrics).map(param),
  };
}

export const mlTrainingModule: GraphqlModule = { typeDefs, resolvers: {} };
