"""One entity of each type built with the SDK's entity classes (and the MCPs of the types the SDK has no class
for), written with DataHubClient.entities.upsert, then read back through DataHubGraph.execute_graphql: the root
query of each type, its common fields, and the listings and browse of DataHub's GraphQL."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.mcp_builder import DatabaseKey
from datahub.sdk import (
    Chart,
    Container,
    Dashboard,
    DataFlow,
    DataHubClient,
    DataJob,
    Dataset,
    GlossaryNode,
    GlossaryTerm,
    MLModel,
    MLModelGroup,
    Tag,
)

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
client = DataHubClient(graph=graph)

DOMAIN = "urn:li:domain:sdk-commerce"
GROUP = "urn:li:corpGroup:sdk-analysts"
PRODUCT = "urn:li:dataProduct:sdk-orders"

# Types without an SDK class: as DataHub's example library writes them, one MCP each.
for mcp in [
    MetadataChangeProposalWrapper(entityUrn=DOMAIN, aspect=models.DomainPropertiesClass(name="Commerce")),
    MetadataChangeProposalWrapper(entityUrn=GROUP, aspect=models.CorpGroupInfoClass(displayName="Analysts", admins=[], members=[], groups=[])),
]:
    graph.emit_mcp(mcp)

tag = Tag(name="sdk-pii", display_name="PII", description="Personal data")
node = GlossaryNode(id="sdk-finance", display_name="Finance", definition="Money")
term = GlossaryTerm(id="sdk-revenue", display_name="Revenue", definition="Money in", parent_node=node)
container = Container(container_key=DatabaseKey(platform="mysql", database="sdk_shop"), display_name="sdk_shop", subtype="Database")
dataset = Dataset(
    platform="mysql",
    name="sdk_shop.orders",
    description="Orders",
    parent_container=container,
    tags=[tag.urn],
    terms=[term.urn],
    owners=["urn:li:corpuser:jdoe"],
    domain=DOMAIN,
    links=[("https://wiki/orders", "Runbook")],
)
chart = Chart(name="sdk-sales", platform="looker", display_name="Sales", input_datasets=[dataset])
dashboard = Dashboard(name="sdk-overview", platform="looker", display_name="Overview", charts=[chart])
flow = DataFlow(name="sdk-etl", platform="airflow", display_name="ETL")
job = DataJob(name="sdk-load", flow=flow, display_name="Load", inlets=[dataset.urn])
group = MLModelGroup(id="sdk-churn-group", platform="mlflow", name="Churn models")
model = MLModel(id="sdk-churn", platform="mlflow", name="Churn", model_group=group.urn)
for entity in [tag, node, term, container, dataset, chart, dashboard, flow, job, group, model]:
    client.entities.upsert(entity)
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=PRODUCT,
        aspect=models.DataProductPropertiesClass(name="Orders", assets=[models.DataProductAssociationClass(destinationUrn=str(dataset.urn))]),
    )
)

ROOTS = {
    "dataset": str(dataset.urn),
    "container": str(container.urn),
    "chart": str(chart.urn),
    "dashboard": str(dashboard.urn),
    "dataFlow": str(flow.urn),
    "dataJob": str(job.urn),
    "tag": str(tag.urn),
    "glossaryTerm": str(term.urn),
    "glossaryNode": str(node.urn),
    "mlModel": str(model.urn),
    "mlModelGroup": str(group.urn),
    "domain": DOMAIN,
    "corpGroup": GROUP,
    "dataProduct": PRODUCT,
}
roots = {}
for field, urn in ROOTS.items():
    roots[field] = graph.execute_graphql(
        f"query q($urn: String!) {{ {field}(urn: $urn) {{ urn type }} }}", variables={"urn": urn}
    )[field]

detail = graph.execute_graphql(
    """query d($urn: String!) { dataset(urn: $urn) {
        container { urn properties { name } }
        parentContainers { count }
        tags { tags { tag { urn properties { name } } } }
        glossaryTerms { terms { term { urn parentNodes { nodes { urn } } } } }
        ownership { owners { owner { ... on CorpUser { urn } } } }
        domain { domain { urn properties { name } } }
        institutionalMemory { elements { url label } }
        browsePathV2 { path { name entity { urn } } }
    } }""",
    variables={"urn": str(dataset.urn)},
)["dataset"]

lists = graph.execute_graphql(
    """{ listDomains(input: { start: 0, count: 10 }) { total domains { urn } }
         getRootGlossaryNodes(input: { start: 0, count: 10 }) { nodes { urn } }
         listGroups(input: {}) { groups { urn } } }"""
)
product = graph.execute_graphql(
    "query p($urn: String!) { dataProduct(urn: $urn) { entities { total searchResults { entity { urn } } } } }", variables={"urn": PRODUCT}
)["dataProduct"]
container_entities = graph.execute_graphql(
    "query c($urn: String!) { container(urn: $urn) { subTypes { typeNames } entities(input: {}) { total searchResults { entity { urn } } } } }",
    variables={"urn": str(container.urn)},
)["container"]
lineage = client.lineage.get_lineage(source_urn=str(dataset.urn), direction="downstream")

print_result(
    {
        "urns": ROOTS,
        "roots": roots,
        "detail": detail,
        "lists": lists,
        "product": product,
        "container": container_entities,
        "lineage": sorted(str(r.urn) for r in lineage),
    }
)
