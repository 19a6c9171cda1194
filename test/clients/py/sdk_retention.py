"""Emits five versions of a dataset's schema with DataHub's emitter, one more field each, under a retention policy."""

import time

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
urn = args["urn"]


def next_millisecond() -> None:
    """Each version gets its own createdOn: wait until the clock has moved on."""
    now = time.time_ns() // 1_000_000
    while time.time_ns() // 1_000_000 <= now:
        pass


for n in range(1, 6):
    next_millisecond()
    fields = [
        models.SchemaFieldClass(fieldPath=f"f{i}", nativeDataType="int", type=models.SchemaFieldDataTypeClass(type=models.NumberTypeClass()))
        for i in range(n)
    ]
    schema = models.SchemaMetadataClass(
        schemaName="retained", platform="urn:li:dataPlatform:hive", version=0, hash="", platformSchema=models.OtherSchemaClass(rawSchema=""), fields=fields
    )
    graph.emit(MetadataChangeProposalWrapper(entityUrn=urn, aspect=schema))

print_result({"latest": [f.fieldPath for f in graph.get_aspect(urn, models.SchemaMetadataClass).fields]})
