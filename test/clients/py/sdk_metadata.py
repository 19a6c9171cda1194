"""Writes a file of metadata built with the SDK's own builders, in the file sink's format, for `datahub ingest` to send.

Input: `file` (where to write) and `prefix` (makes every urn of this file distinct). Prints the urns it wrote.
"""

import time

import datahub.emitter.mce_builder as builder
import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.sink.file import write_metadata_file

from harness import print_result, read_input

args = read_input()
prefix = args["prefix"]
now = int(time.time() * 1000)
stamp = models.AuditStampClass(time=now, actor="urn:li:corpuser:ingestion")

container = builder.make_container_urn(f"{prefix}-warehouse")
domain = builder.make_domain_urn(f"{prefix}-finance")
tag = builder.make_tag_urn(f"{prefix}-pii")
term = builder.make_term_urn(f"{prefix}.Revenue")
orders = builder.make_dataset_urn("postgres", f"{prefix}.public.orders")
revenue = builder.make_dataset_urn("postgres", f"{prefix}.public.revenue")
flow = builder.make_data_flow_urn("airflow", f"{prefix}_daily")
job = builder.make_data_job_urn_with_flow(flow, "build_revenue")
chart = builder.make_chart_urn("looker", f"{prefix}_revenue_chart")
dashboard = builder.make_dashboard_urn("looker", f"{prefix}_finance")


def schema(fields):
    return models.SchemaMetadataClass(
        schemaName="public",
        platform=builder.make_data_platform_urn("postgres"),
        version=0,
        hash="",
        platformSchema=models.OtherSchemaClass(rawSchema=""),
        fields=[
            models.SchemaFieldClass(fieldPath=name, type=models.SchemaFieldDataTypeClass(type=kind()), nativeDataType=native, description=f"The {name}")
            for name, kind, native in fields
        ],
    )


aspects = {
    tag: [models.TagPropertiesClass(name=f"{prefix}-pii", description="Personal data")],
    term: [models.GlossaryTermInfoClass(name="Revenue", definition="Money in", termSource="INTERNAL")],
    domain: [models.DomainPropertiesClass(name="Finance", description="Money matters")],
    container: [
        models.ContainerPropertiesClass(name="warehouse", customProperties={"tier": "gold"}),
        models.SubTypesClass(typeNames=["Database"]),
        models.DataPlatformInstanceClass(platform=builder.make_data_platform_urn("postgres")),
    ],
    orders: [
        models.DatasetPropertiesClass(name="orders", description="One row per order", customProperties={"owner_team": "core"}),
        schema([("id", models.NumberTypeClass, "bigint"), ("total", models.NumberTypeClass, "numeric")]),
        models.ContainerClass(container=container),
        models.GlobalTagsClass(tags=[models.TagAssociationClass(tag=tag)]),
        models.OwnershipClass(owners=[models.OwnerClass(owner=builder.make_user_urn("jdoe"), type=models.OwnershipTypeClass.TECHNICAL_OWNER)], lastModified=stamp),
        models.StatusClass(removed=False),
        models.SubTypesClass(typeNames=["Table"]),
        models.BrowsePathsV2Class(path=[models.BrowsePathEntryClass(id=container, urn=container)]),
    ],
    revenue: [
        models.DatasetPropertiesClass(name="revenue", description="Revenue by day"),
        schema([("day", models.DateTypeClass, "date"), ("amount", models.NumberTypeClass, "numeric")]),
        models.UpstreamLineageClass(upstreams=[models.UpstreamClass(dataset=orders, type=models.DatasetLineageTypeClass.TRANSFORMED, auditStamp=stamp)]),
        models.GlossaryTermsClass(terms=[models.GlossaryTermAssociationClass(urn=term)], auditStamp=stamp),
        models.DomainsClass(domains=[domain]),
        models.EditableDatasetPropertiesClass(description="Edited in the UI"),
        models.ViewPropertiesClass(materialized=True, viewLogic="SELECT day, SUM(total) FROM orders GROUP BY day", viewLanguage="SQL"),
        models.DatasetProfileClass(timestampMillis=now - 86_400_000, rowCount=365, columnCount=2),
        models.DatasetProfileClass(timestampMillis=now, rowCount=366, columnCount=2),
    ],
    flow: [models.DataFlowInfoClass(name=f"{prefix}_daily", description="Daily build"), models.ContainerClass(container=container)],
    job: [
        models.DataJobInfoClass(name="build_revenue", type=models.AzkabanJobTypeClass.COMMAND),
        models.DataJobInputOutputClass(inputDatasets=[orders], outputDatasets=[revenue]),
    ],
    chart: [models.ChartInfoClass(title="Revenue", description="Revenue by day", lastModified=models.ChangeAuditStampsClass(), inputs=[revenue])],
    dashboard: [models.DashboardInfoClass(title="Finance", description="Money", lastModified=models.ChangeAuditStampsClass(), charts=[chart])],
}
mcps = [MetadataChangeProposalWrapper(entityUrn=urn, aspect=aspect) for urn, list_ in aspects.items() for aspect in list_]
write_metadata_file(args["file"], mcps)
print_result({"urns": list(aspects.keys()), "proposals": len(mcps)})
