"""Emits, with the SDK's typed classes and DataHubGraph, what an ingestion leaves for the console to show.

Input: `now` (epoch millis the profiles end at). The fixture: `hive sales.orders` with description, custom
properties, owners (a user and a group), tags, a glossary term, a domain, a schema with field descriptions and tags,
20 daily profiles and one upstream, `kafka sales.raw_orders`; `hive sales.orders_v1`, deprecated in favour of
orders; `hive sales.legacy_orders`, soft-deleted. Prints the urns it wrote.
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

orders = builder.make_dataset_urn("hive", "sales.orders")
raw = builder.make_dataset_urn("kafka", "sales.raw_orders")
v1 = builder.make_dataset_urn("hive", "sales.orders_v1")
legacy = builder.make_dataset_urn("hive", "sales.legacy_orders")
alice = builder.make_user_urn("alice")
finance = builder.make_group_urn("finance")
pii = builder.make_tag_urn("pii")
gold = builder.make_tag_urn("gold")
revenue = builder.make_term_urn("Revenue")
sales = builder.make_domain_urn("sales")


def field(path, kind, native, description, tags=()):
    return models.SchemaFieldClass(
        fieldPath=path,
        type=models.SchemaFieldDataTypeClass(type=kind()),
        nativeDataType=native,
        description=description,
        globalTags=models.GlobalTagsClass(tags=[models.TagAssociationClass(tag=t) for t in tags]) if tags else None,
    )


def profile(day):
    rows = 1000 + 50 * day
    return models.DatasetProfileClass(
        timestampMillis=now - (19 - day) * DAY,
        rowCount=rows,
        columnCount=3,
        fieldProfiles=[
            models.DatasetFieldProfileClass(fieldPath="coupon_code", nullCount=rows // (day + 2), nullProportion=1 / (day + 2)),
            models.DatasetFieldProfileClass(fieldPath="order_id", nullCount=0, nullProportion=0.0),
        ],
    )


aspects = {
    alice: [models.CorpUserInfoClass(active=True, displayName="Alice Liddell", email="alice@example.com")],
    finance: [models.CorpGroupInfoClass(displayName="Finance team", admins=[], members=[], groups=[])],
    pii: [models.TagPropertiesClass(name="PII", description="Personal data")],
    gold: [models.TagPropertiesClass(name="Gold")],
    revenue: [models.GlossaryTermInfoClass(name="Revenue", definition="Money in", termSource="INTERNAL")],
    sales: [models.DomainPropertiesClass(name="Sales")],
    raw: [models.DatasetPropertiesClass(name="raw_orders", description="Order events as the shop emits them")],
    orders: [
        models.DatasetPropertiesClass(
            name="orders",
            description="Every order placed in the web shop, one row each.",
            customProperties={"retention": "400 days", "refresh": "hourly"},
        ),
        models.OwnershipClass(
            owners=[
                models.OwnerClass(owner=alice, type=models.OwnershipTypeClass.DATAOWNER),
                models.OwnerClass(owner=finance, type=models.OwnershipTypeClass.TECHNICAL_OWNER),
            ],
            lastModified=stamp,
        ),
        models.GlobalTagsClass(tags=[models.TagAssociationClass(tag=pii), models.TagAssociationClass(tag=gold)]),
        models.GlossaryTermsClass(terms=[models.GlossaryTermAssociationClass(urn=revenue)], auditStamp=stamp),
        models.DomainsClass(domains=[sales]),
        models.SchemaMetadataClass(
            schemaName="orders",
            platform=builder.make_data_platform_urn("hive"),
            version=0,
            hash="",
            platformSchema=models.OtherSchemaClass(rawSchema=""),
            fields=[
                field("order_id", models.NumberTypeClass, "bigint", "The order's id"),
                field("email", models.StringTypeClass, "varchar(320)", "Who placed it", tags=[pii]),
                field("coupon_code", models.StringTypeClass, "varchar(32)", "The coupon used, if any"),
            ],
        ),
        models.UpstreamLineageClass(upstreams=[models.UpstreamClass(dataset=raw, type=models.DatasetLineageTypeClass.TRANSFORMED, auditStamp=stamp)]),
        *[profile(day) for day in range(20)],
    ],
    builder.make_schema_field_urn(orders, "coupon_code"): [
        models.DeprecationClass(deprecated=True, note="Coupons moved to sales.promotions", actor=alice, decommissionTime=now + 30 * DAY),
    ],
    v1: [
        models.DatasetPropertiesClass(name="orders_v1", description="The first orders table"),
        models.DeprecationClass(deprecated=True, note="Use orders", actor=alice, decommissionTime=now + 10 * DAY, replacement=orders),
    ],
    legacy: [models.DatasetPropertiesClass(name="legacy_orders", description="Orders before 2020"), models.StatusClass(removed=True)],
}

graph.emit_mcps([MetadataChangeProposalWrapper(entityUrn=urn, aspect=aspect) for urn, values in aspects.items() for aspect in values])
print_result({"orders": orders, "raw": raw, "v1": v1, "legacy": legacy})
