"""What DataHub's client concludes from /config, and a write that this conclusion sends over OpenAPI."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.ingestion.graph.config import ClientMode
from datahub.utilities.server_config_util import ServiceFeature

from harness import print_result, read_input

args = read_input()
# Client mode SDK, as DataHubClient builds its graph: it ingests over OpenAPI v3 once the server's release supports it.
graph = DataHubGraph(DatahubClientConfig(server=args["server"], token=args["token"], client_mode=ClientMode.SDK))
config = graph.server_config
graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=args["urn"], aspect=models.DatasetPropertiesClass(description="written over OpenAPI")))

print_result(
    {
        "serviceVersion": config.service_version,
        "parsedVersion": list(config.parsed_version or ()),
        "commit": config.commit_hash,
        "cloud": config.is_datahub_cloud,
        "managedIngestion": config.is_managed_ingestion_enabled,
        "features": {f.value: config.supports_feature(f) for f in ServiceFeature},
        "openapiIngestion": graph._openapi_ingestion,
    }
)
