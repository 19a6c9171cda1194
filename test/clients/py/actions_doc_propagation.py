"""DataHub's `doc_propagation` action (acryl-datahub-actions), run as `datahub-actions actions run -c <recipe>` with the
`datahub-cloud` event source and the filters of DataHub's own deployment (docker/datahub-actions/config/
doc_propagation_action.yaml: DOCUMENTATION events of schemaFields, and schemaFields' documentation aspect), propagates
a field's description downstream along fine-grained lineage:

1. ingested: the upstream dataset's schemaMetadata is sent again with the field's description, as DataHub's smoke test
   tests/actions/doc_propagation does;
2. edited: the field's description is written through GraphQL's updateDescription, as DataHub's UI does.

Each time the downstream field's `documentation` aspect is read back with the description the action wrote.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from harness import connect, print_result, read_input

from datahub.emitter.mce_builder import make_dataset_urn, make_schema_field_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    DocumentationClass,
    FineGrainedLineageClass,
    FineGrainedLineageDownstreamTypeClass,
    FineGrainedLineageUpstreamTypeClass,
    OtherSchemaClass,
    SchemaFieldClass,
    SchemaFieldDataTypeClass,
    SchemaMetadataClass,
    StringTypeClass,
    UpstreamClass,
    UpstreamLineageClass,
)

args = read_input()
graph = connect(args)
actions_cli = os.path.join(os.path.dirname(sys.executable), "datahub-actions")
work = tempfile.mkdtemp(prefix="almanac-doc-propagation-")
suffix = args["suffix"]

upstream = make_dataset_urn("hive", f"docs.upstream.{suffix}")
downstream = make_dataset_urn("hive", f"docs.downstream.{suffix}")


def schema(name, described=None):
    return SchemaMetadataClass(
        schemaName=name,
        platform="urn:li:dataPlatform:hive",
        version=0,
        hash="",
        platformSchema=OtherSchemaClass(rawSchema=""),
        fields=[
            SchemaFieldClass(
                fieldPath=path,
                type=SchemaFieldDataTypeClass(type=StringTypeClass()),
                nativeDataType="string",
                description=(described or {}).get(path),
            )
            for path in ("ip", "agent")
        ],
    )


graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=upstream, aspect=schema("upstream")))
graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=downstream, aspect=schema("downstream")))
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=downstream,
        aspect=UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=upstream, type=DatasetLineageTypeClass.TRANSFORMED)],
            fineGrainedLineages=[
                FineGrainedLineageClass(
                    upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET,
                    downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD,
                    upstreams=[make_schema_field_urn(upstream, path)],
                    downstreams=[make_schema_field_urn(downstream, path)],
                )
                for path in ("ip", "agent")
            ],
        ),
    )
)

# The recipe of DataHub's deployment, with the datahub-cloud source in place of Kafka.
recipe = {
    "name": "almanac_doc_propagation",
    "datahub": {"server": args["server"], "token": args["token"]},
    # lookback: the first poll reads today's log from its start, so an edit made while the pipeline starts is not missed.
    "source": {"type": "datahub-cloud", "config": {"topics": ["PlatformEvent_v1", "MetadataChangeLog_Versioned_v1"], "lookback_days": 1}},
    "filters": [
        {
            "type": "event_type",
            "config": {
                "filter": {
                    "MetadataChangeLogEvent_v1": {"event": [{"entityType": "schemaField", "aspectName": "documentation"}]},
                    "EntityChangeEvent_v1": {"event": [{"category": "DOCUMENTATION", "entityType": "schemaField"}]},
                }
            },
        }
    ],
    "action": {"type": "doc_propagation", "config": {"columns_enabled": True, "rate_limit_propagated_writes": 1500, "rate_limit_propagated_writes_period": 1}},
}
path = os.path.join(work, "recipe.json")
with open(path, "w") as f:
    json.dump(recipe, f)
env = {**os.environ, "DATAHUB_TELEMETRY_ENABLED": "false"}
proc = subprocess.Popen([actions_cli, "actions", "run", "-c", path], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def docs_of(field_urn):
    documentation = graph.get_aspect(field_urn, DocumentationClass)
    return [d.documentation for d in documentation.documentations] if documentation else []


def wait_for(condition, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        if condition():
            return True
        time.sleep(0.5)
    return False


try:
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=upstream, aspect=schema("upstream", {"ip": "The client's address"})))
    ingested = wait_for(lambda: "The client's address" in docs_of(make_schema_field_urn(downstream, "ip")))
    graph.execute_graphql(
        "mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }",
        variables={"input": {"resourceUrn": upstream, "subResourceType": "DATASET_FIELD", "subResource": "agent", "description": "The browser"}},
    )
    edited = wait_for(lambda: "The browser" in docs_of(make_schema_field_urn(downstream, "agent")))
finally:
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=60)

print_result(
    {
        "ingested": ingested,
        "edited": edited,
        "downstreamIp": docs_of(make_schema_field_urn(downstream, "ip")),
        "downstreamAgent": docs_of(make_schema_field_urn(downstream, "agent")),
        "upstreamIp": docs_of(make_schema_field_urn(upstream, "ip")),
        "log": out[-4000:] if not (ingested and edited) else "",
    }
)
