"""Emits 1,000 datasets of one platform beside a few of another in one batch, then reads them back the ways
DataHubGraph 1.7 reads entities over OpenAPI: scroll_entities (v3 scroll, filtered, paged by scroll id),
get_entities (v3 batchGet) and get_entities_v2 (v2 batch)."""

import warnings

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
hive, others = args["hive"], args["others"]

graph.emit_mcps(
    [MetadataChangeProposalWrapper(entityUrn=u, aspect=models.DatasetPropertiesClass(name=u.split(",")[1])) for u in hive + others]
)

only_hive = [{"and": [{"field": "platform", "values": ["urn:li:dataPlatform:hive"], "condition": "EQUAL"}]}]
seen, scroll_id, pages, totals = [], None, 0, set()
while True:
    page = graph.scroll_entities(entity_names=["dataset"], aspects=["datasetProperties"], filter=only_hive, count=100, scroll_id=scroll_id)
    pages += 1
    totals.add(page.total_count)
    seen.extend(page.entities.keys())
    names_match = all(a["datasetProperties"][0].name == u.split(",")[1] for u, a in page.entities.items())
    scroll_id = page.scroll_id
    if scroll_id is None or not names_match:
        break

urns_only = graph.scroll_entities(entity_names=["dataset"], count=5, sort_criteria=[{"field": "urn", "order": "DESCENDING"}])

wanted = [hive[0], others[0], "urn:li:dataset:(urn:li:dataPlatform:hive,never.emitted,PROD)"]
typed = graph.get_entities("dataset", wanted, aspects=["datasetProperties"], with_system_metadata=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    raw = graph.get_entities_v2("dataset", wanted, aspects=["datasetProperties"])

print_result(
    {
        "scroll": {"urns": seen, "pages": pages, "totals": sorted(totals), "namesMatch": names_match},
        "urnsOnly": {"urns": list(urns_only.entities.keys()), "aspects": [len(a) for a in urns_only.entities.values()]},
        "batchGet": {u: {"name": a["datasetProperties"][0].name, "runId": a["datasetProperties"][1].runId} for u, a in typed.items()},
        "batchV2": {u: a["datasetProperties"]["value"]["name"] for u, a in raw.items()},
    }
)
