"""Emits, with the SDK's typed classes and DataHubGraph, what the console's curation, search and lineage tests use.

Input: `now` (epoch millis). The fixture: people (Alice Liddell, Margaret Hamilton), a group, tags PII and Gold,
glossary terms Revenue and Customer Lifetime Value, a domain Sales; a Looker dashboard "Quarterly Revenue Overview"
with a chart; `hive shop.orders` to curate (a description, a schema of three fields); a chain of four datasets,
raw_events -> sessions (deprecated) -> daily_revenue -> revenue_report, with column lineage into daily_revenue;
and `hive shop.orders_archive`, a dataset the replacement picker finds by a word of its name. Prints the urns.
"""

import datahub.emitter.mce_builder as builder
import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper

from harness import connect, print_result, read_input

DAY = 86_400_000

args = read_input()
graph = connect(args)
now = args["now"]
stamp = models.AuditStampClass(time=now, actor="urn:li:corpuser:ingestion")


def ds(name, platform="hive"):
    return builder.make_dataset_urn(platform, f"shop.{name}")


orders = ds("orders")
archive = ds("orders_archive")
raw_events, sessions, daily, report = ds("raw_events", "kafka"), ds("sessions"), ds("daily_revenue"), ds("revenue_report")
alice, margaret = builder.make_user_urn("alice"), builder.make_user_urn("mhamilton")
finance = builder.make_group_urn("finance")
pii, gold = builder.make_tag_urn("pii"), builder.make_tag_urn("gold")
revenue, clv = builder.make_term_urn("Revenue"), builder.make_term_urn("CustomerLifetimeValue")
sales = builder.make_domain_urn("sales")
dashboard = builder.make_dashboard_urn("looker", "quarterly_revenue")
chart = builder.make_chart_urn("looker", "revenue_by_region")


def field(path, kind, native, description):
    return models.SchemaFieldClass(fieldPath=path, type=models.SchemaFieldDataTypeClass(type=kind()), nativeDataType=native, description=description)


def schema(name, *fields):
    return models.SchemaMetadataClass(
        schemaName=name,
        platform=builder.make_data_platform_urn("hive"),
        version=0,
        hash="",
        platformSchema=models.OtherSchemaClass(rawSchema=""),
        fields=list(fields),
    )


def upstream(of):
    return models.UpstreamClass(dataset=of, type=models.DatasetLineageTypeClass.TRANSFORMED, auditStamp=stamp)


aspects = {
    alice: [models.CorpUserInfoClass(active=True, displayName="Alice Liddell", email="alice@example.com")],
    margaret: [models.CorpUserInfoClass(active=True, displayName="Margaret Hamilton", email="margaret@example.com", title="Director of software engineering")],
    finance: [models.CorpGroupInfoClass(displayName="Finance team", admins=[], members=[], groups=[])],
    pii: [models.TagPropertiesClass(name="PII", description="Personal data")],
    gold: [models.TagPropertiesClass(name="Gold")],
    revenue: [models.GlossaryTermInfoClass(name="Revenue", definition="Money in", termSource="INTERNAL")],
    clv: [models.GlossaryTermInfoClass(name="Customer Lifetime Value", definition="What a customer brings in over time", termSource="INTERNAL")],
    sales: [models.DomainPropertiesClass(name="Sales")],
    chart: [models.ChartInfoClass(title="Revenue by region", description="Sum of revenue per region", lastModified=models.ChangeAuditStampsClass(), inputs=[report])],
    dashboard: [
        models.DashboardInfoClass(
            title="Quarterly Revenue Overview",
            description="Revenue per quarter, for the board",
            charts=[chart],
            lastModified=models.ChangeAuditStampsClass(),
        ),
        models.OwnershipClass(owners=[models.OwnerClass(owner=margaret, type=models.OwnershipTypeClass.BUSINESS_OWNER)], lastModified=stamp),
        models.GlobalTagsClass(tags=[models.TagAssociationClass(tag=gold)]),
    ],
    orders: [
        models.DatasetPropertiesClass(name="orders", description="Every order placed in the web shop."),
        models.OwnershipClass(owners=[models.OwnerClass(owner=finance, type=models.OwnershipTypeClass.TECHNICAL_OWNER)], lastModified=stamp),
        schema(
            "orders",
            field("order_id", models.NumberTypeClass, "bigint", "The order's id"),
            field("email", models.StringTypeClass, "varchar(320)", "Who placed it"),
            field("amount", models.NumberTypeClass, "decimal(12,2)", "What it cost"),
        ),
    ],
    archive: [models.DatasetPropertiesClass(name="orders_archive", description="Orders before 2020")],
    raw_events: [models.DatasetPropertiesClass(name="raw_events", description="Clicks as the shop emits them")],
    sessions: [
        models.DatasetPropertiesClass(name="sessions"),
        schema("sessions", field("session_id", models.StringTypeClass, "string", None), field("amount", models.NumberTypeClass, "double", None)),
        models.UpstreamLineageClass(upstreams=[upstream(raw_events)]),
        models.DeprecationClass(deprecated=True, note="Sessions are rebuilt from raw_events", actor=alice, decommissionTime=now + 20 * DAY),
    ],
    daily: [
        models.DatasetPropertiesClass(name="daily_revenue"),
        schema("daily_revenue", field("day", models.DateTypeClass, "date", None), field("revenue", models.NumberTypeClass, "double", None)),
        models.UpstreamLineageClass(
            upstreams=[upstream(sessions)],
            fineGrainedLineages=[
                models.FineGrainedLineageClass(
                    upstreamType=models.FineGrainedLineageUpstreamTypeClass.FIELD_SET,
                    upstreams=[builder.make_schema_field_urn(sessions, "amount")],
                    downstreamType=models.FineGrainedLineageDownstreamTypeClass.FIELD,
                    downstreams=[builder.make_schema_field_urn(daily, "revenue")],
                    transformOperation="SUM",
                )
            ],
        ),
    ],
    report: [models.DatasetPropertiesClass(name="revenue_report"), models.UpstreamLineageClass(upstreams=[upstream(daily)])],
}

graph.emit_mcps([MetadataChangeProposalWrapper(entityUrn=urn, aspect=aspect) for urn, values in aspects.items() for aspect in values])
print_result(
    {
        "orders": orders,
        "archive": archive,
        "rawEvents": raw_events,
        "sessions": sessions,
        "daily": daily,
        "report": report,
        "dashboard": dashboard,
        "chart": chart,
        "margaret": margaret,
        "clv": clv,
    }
)
