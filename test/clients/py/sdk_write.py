"""Writes through DatahubRestEmitter the ways users do; the test reads everything back over HTTP."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter, EmitMode
from datahub.metadata.com.linkedin.pegasus2avro.mxe import MetadataChangeEvent
from datahub.specific.dataset import DatasetPatchBuilder

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
# A profiler that runs before (or apart from) the source that emits the dataset.
restli.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["profiledFirst"], aspect=models.DatasetProfileClass(timestampMillis=args["profileTimes"][0], rowCount=7)))
unknown_aspect = refusal(
    lambda: restli.emit_mcp(
        models.MetadataChangeProposalClass(
            entityType="dataset",
            entityUrn=urns["mcp"],
            changeType="UPSERT",
            aspectName="noSuchAspect",
            aspect=models.GenericAspectClass(value=b"{}", contentType="application/json"),
        )
    )
)


def patches(urn):
    """The SDK's patch builder: tags, terms, owners, lineage, custom properties and the description, as users chain them."""
    builder = (
        DatasetPatchBuilder(urn)
        .add_tag(models.TagAssociationClass(tag="urn:li:tag:pii"))
        .add_term(models.GlossaryTermAssociationClass(urn="urn:li:glossaryTerm:revenue"))
        .add_owner(models.OwnerClass(owner="urn:li:corpuser:jdoe", type=models.OwnershipTypeClass.DATAOWNER))
        .add_upstream_lineage(models.UpstreamClass(dataset=args["upstream"], type=models.DatasetLineageTypeClass.TRANSFORMED))
        .add_custom_property("team/owner", "core")
        .set_description("Patched by the SDK")
    )
    return builder.build()


for mcp in patches(urns["patched"]):
    restli.emit_mcp(mcp)
# A second round removes one tag and adds another; patches apply to the latest version.
restli.emit_mcps(
    DatasetPatchBuilder(urns["patched"]).remove_tag("urn:li:tag:pii").add_tag(models.TagAssociationClass(tag="urn:li:tag:gold")).build()
)

openapi = DatahubRestEmitter(args["server"], token=args["token"], openapi_ingestion=True)
openapi.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["openapi"], aspect=models.StatusClass(removed=False)))
openapi.emit_mcps([MetadataChangeProposalWrapper(entityUrn=urns["openapi"], aspect=models.DatasetPropertiesClass(name="openapi"))])
openapi.emit_mcps(patches(urns["openapiPatched"]))

print_result({"noCode": config.get("noCode"), "unknownAspect": unknown_aspect})
