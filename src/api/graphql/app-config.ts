import { ALMANAC_VERSION } from '../version.ts';
import type { GraphqlModule } from './schema.ts';

// DataHub's appConfig, the part its clients read without the UI: `datahub search diagnose` pings it
// (`appConfig { telemetryConfig { enableThirdPartyLogging } }`) to tell that the server is there. The UI's other
// sections (auth, analytics, policies, views, ...) are not served: selecting one is a validation error naming it.
const typeDefs = /* GraphQL */ `
  "Configurations DataHub serves its UI; Almanac answers the version and telemetry."
  type AppConfig {
    appVersion: String
    telemetryConfig: TelemetryConfig!
  }

  type TelemetryConfig {
    "Almanac sends and asks for no third-party logging."
    enableThirdPartyLogging: Boolean
  }

  extend type Query {
    appConfig: AppConfig
  }
`;

export const appConfigModule: GraphqlModule = {
  typeDefs,
  resolvers: {
    Query: { appConfig: () => ({ appVersion: ALMANAC_VERSION, telemetryConfig: { enableThirdPartyLogging: false } }) },
  },
};
