"""Emits lineage and ownership through the SDK, then reads the edges back the ways DataHubGraph reads them:
get_related_entities (OpenAPI v1, paged), scroll_relationships and scroll_lineage (OpenAPI v3), around a soft and a hard delete."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DataHubGraph

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
up, down, owned, hub, soft, hard = args["up"], args["down"], args["owned"], args["hub"], args["soft"], args["hard"]
IN, OUT = DataHubGraph.RelationshipDirection.INCOMING, DataHubGraph.RelationshipDirection.OUTGOING


def lineage(*upstreams):
    return models.UpstreamLineageClass(upstreams=[models.UpstreamClass(dataset=u, type=models.DatasetLineageTypeClass.TRANSFORMED) for u in upstreams])


def owners(*urns):
    return models.OwnershipClass(owners=[models.OwnerClass(owner=o, type=models.OwnershipTypeClass.DATAOWNER) for o in urns])


def related(urn, types, direction):
    return [[r.urn, r.relationship_type, r.via] for r in graph.get_related_entities(urn, types, direction)]


def scroll_all(call, **kwargs):
    """Every page of a scroll, following scroll_id until the server stops handing one out."""
    edges, scroll_id, pages = [], None, 0
    while True:
        page = call(scroll_id=scroll_id, **kwargs)
        edges.extend(page.relationships)
        pages += 1
        scroll_id = page.scroll_id
        if scroll_id is None:
            return edges, pages


mcps = [
    MetadataChangeProposalWrapper(entityUrn=down, aspect=lineage(up)),
    MetadataChangeProposalWrapper(entityUrn=owned, aspect=owners(*args["owners"])),
    *[MetadataChangeProposalWrapper(entityUrn=d, aspect=lineage(hub)) for d in args["hubDownstreams"]],
    MetadataChangeProposalWrapper(entityUrn=soft, aspect=lineage(up)),
    MetadataChangeProposalWrapper(entityUrn=hard, aspect=lineage(up)),
]
graph.emit_mcps(mcps)

result = {
    "downstreamOfOutgoing": related(down, ["DownstreamOf"], OUT),
    "upIncomingBefore": related(up, ["DownstreamOf"], IN),
    "ownedBy": related(owned, ["OwnedBy"], OUT),
    "ownerIncoming": related(args["owners"][0], ["OwnedBy"], IN),
    "hubIncoming": related(hub, ["DownstreamOf"], IN),
}
edges, pages = scroll_all(graph.scroll_relationships, relationship_types=["DownstreamOf"], destination_urns=[hub], count=100)
result["scrollHub"] = {"count": len(edges), "pages": pages, "sources": sorted({e.source_urn for e in edges}) == sorted(args["hubDownstreams"])}
lineage_edges, _ = scroll_all(graph.scroll_lineage, urns=[up], direction=DataHubGraph.LineageDirection.DOWNSTREAM, count=10)
result["lineageOfUp"] = sorted([e.downstream_urn, e.upstream_urn, e.relationship_type] for e in lineage_edges)

graph.soft_delete_entity(soft)
graph.hard_delete_entity(hard)
result["upIncomingAfter"] = related(up, ["DownstreamOf"], IN)
result["softOutgoing"] = related(soft, ["DownstreamOf"], OUT)
graph.set_soft_delete_status(soft, delete=False)
result["upIncomingRestored"] = related(up, ["DownstreamOf"], IN)
print_result(result)
