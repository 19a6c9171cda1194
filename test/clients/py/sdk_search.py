"""Searches a small catalog the way DataHub's Python clients do: DataHubGraph.get_urns_by_filter (GraphQL
scrollAcrossEntities) with platform, env, entity-type, query and extra filters; the new SDK's
DataHubClient.search.get_urns with its filter DSL; and DataHubGraph's Rest.li search helpers (entities?action=search)."""

from datahub.ingestion.graph.filters import RemovedStatusFilter
from datahub.sdk.main_client import DataHubClient
from datahub.sdk.search_filters import FilterDsl as F

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
client = DataHubClient(graph=graph)


def by_filter(**kwargs):
    return sorted(graph.get_urns_by_filter(batch_size=2, **kwargs))


def get_urns(query=None, filter=None):
    return sorted(str(u) for u in client.search.get_urns(query=query, filter=filter))


print_result(
    {
        "graph": {
            "snowflakeDatasets": by_filter(entity_types=["dataset"], platform="snowflake"),
            "prodDatasets": by_filter(entity_types=["dataset"], env="PROD"),
            "devAnything": by_filter(env="DEV"),
            "chartsAndDashboards": by_filter(entity_types=["chart", "dashboard"]),
            "ordersQuery": by_filter(entity_types=["dataset"], query="orders"),
            "hiveOrders": by_filter(platform="hive", query="orders"),
            "hiveOrdersWithDeleted": by_filter(platform="hive", query="orders", status=RemovedStatusFilter.ALL),
            "onlyDeleted": by_filter(entity_types=["dataset"], status=RemovedStatusFilter.ONLY_SOFT_DELETED),
            "tagged": by_filter(extraFilters=[{"field": "tags", "values": [args["pii"]], "condition": "EQUAL"}]),
            "fieldQuery": by_filter(entity_types=["dataset"], query="/q name: orders*"),
        },
        "sdk": {
            "datasets": get_urns(filter=F.entity_type("dataset")),
            "ordersDatasets": get_urns(query="orders", filter=F.entity_type("dataset")),
            "chartOrDashboard": get_urns(filter=F.or_(F.entity_type("chart"), F.entity_type("dashboard"))),
            "snowflakeProd": get_urns(filter=F.and_(F.platform("snowflake"), F.env("PROD"))),
            "ordersNotHive": get_urns(query="orders", filter=F.and_(F.entity_type("dataset"), F.not_(F.platform("hive")))),
            "customTag": get_urns(filter=F.custom_filter("tags", "EQUAL", [args["pii"]])),
            "customPrefix": get_urns(filter=F.and_(F.entity_type("dataset"), F.custom_filter("name", "START_WITH", ["orders"]))),
            "dataProducts": get_urns(filter=F.entity_type("dataProduct")),
        },
        "restli": {
            "domainByName": graph.get_domain_urn_by_name("Finance"),
            "missingDomain": graph.get_domain_urn_by_name("Nowhere"),
            "dataProductByName": graph.get_data_product_urn_by_name("Orders product"),
            "searchResults": graph.get_search_results(start=0, count=2, entity="dataset")["value"],
        },
    }
)
