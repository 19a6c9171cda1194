"""Emits two schema versions and a deprecation with DataHub's emitter, then reads them back with the CLI's get_timeline.

`datahub timeline` itself refuses the DEPRECATION category before it sends anything, so the script calls the function
the command calls, with the category the server answers.
"""

import contextlib
import io
import time

import datahub.metadata.schema_classes as models
from datahub.cli.timeline_cli import get_timeline
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


def schema(*fields):
    return models.SchemaMetadataClass(
        schemaName="timeline",
        platform="urn:li:dataPlatform:hive",
        version=0,
        hash="",
        platformSchema=models.OtherSchemaClass(rawSchema=""),
        fields=[
            models.SchemaFieldClass(fieldPath=path, nativeDataType=native, type=models.SchemaFieldDataTypeClass(type=models.StringTypeClass()))
            for path, native in fields
        ],
    )


for aspect in [
    schema(("id", "int"), ("name", "varchar")),
    schema(("email", "text"), ("id", "int")),
    models.DeprecationClass(deprecated=True, note="use orders_v2", decommissionTime=1800000000000, actor="urn:li:corpuser:datahub"),
]:
    next_millisecond()
    graph.emit(MetadataChangeProposalWrapper(entityUrn=urn, aspect=aspect))
next_millisecond()


def timeline(categories, raw):
    # get_timeline echoes the url it calls; this script's stdout carries only its result.
    with contextlib.redirect_stdout(io.StringIO()):
        return get_timeline(urn, categories, None, None, raw, graph=graph)


print_result({"deprecation": timeline(["DEPRECATION"], False), "schema": timeline(["TECHNICAL_SCHEMA"], True)})
