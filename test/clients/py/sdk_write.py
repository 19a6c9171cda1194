"""Writes through DatahubRestEmitter the ways users do; the test reads everything back over HTTP."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter, EmitMode
from datahub.metadata.com.linkedin.pegasus2avro.mxe import MetadataChangeEvent

from harness import print_result, read_input, refusal

args = read_input()
urns = args["urns"]
restli = DatahubRestEmitter(args["server"], token=args["token"], openapi_ingestion=False)
restli.test_connection()
config = restli.get_server_config()

restli.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["mcp"], aspect=models.DatasetPropertiesClass(name="orders", description="One row per order")))
restli.emit(MetadataChangeProposalWrapper(entityUrn=urns["mcp"], aspect=models.StatusClass(removed=False)))
restli.emit_mcps(
    [
        MetadataChangeProposalWrapper(
            entityUrn=urns["mcp"],
            aspect=models.OwnershipClass(owners=[models.OwnerClass(owner="urn:li:corpuser:jdoe", type=models.OwnershipTypeClass.DATAOWNER)]),
        ),
        *[
            MetadataChangeProposalWrapper(entityUrn=urns["mcp"], aspect=models.DatasetProfileClass(timestampMillis=t, rowCount=i))
            for i, t in enumerate(args["profileTimes"])
        ],
    ]
)
restli.emit_mcp(
    MetadataChangeProposalWrapper(entityUrn=urns["async"], aspect=models.DatasetPropertiesClass(name="async")),
    emit_mode=EmitMode.ASYNC,
)
restli.emit_mce(
    MetadataChangeEvent(
        proposedSnapshot=models.DatasetSnapshotClass(
            urn=urns["mce"],
            aspects=[models.StatusClass(removed=False), models.DatasetPropertiesClass(name="snapshot", customProperties={"team": "core"})],
        )
    )
)
missing_entity = refusal(
    lambda: restli.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["missing"], aspect=models.DatasetProfileClass(timestampMillis=args["profileTimes"][0], rowCount=1)))
)

openapi = DatahubRestEmitter(args["server"], token=args["token"], openapi_ingestion=True)
openapi.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["openapi"], aspect=models.StatusClass(removed=False)))
openapi.emit_mcps([MetadataChangeProposalWrapper(entityUrn=urns["openapi"], aspect=models.DatasetPropertiesClass(name="openapi"))])

print_result({"noCode": config.get("noCode"), "missingEntity": missing_entity})
