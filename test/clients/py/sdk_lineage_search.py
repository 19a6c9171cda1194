"""Emits a lineage chain with a branch and a cycle through the SDK, then asks GraphQL's searchAcrossLineage for it
through DataHubGraph.execute_graphql, as the DataHub UI's impact analysis and scripts built on it do."""

import datahub.metadata.schema_classes as models
from datahub.emitter.mcp import MetadataChangeProposalWrapper

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
t1, t2, t3, t4, branch = args["t1"], args["t2"], args["t3"], args["t4"], args["branch"]


def lineage(*upstreams):
    return models.UpstreamLineageClass(upstreams=[models.UpstreamClass(dataset=u, type=models.DatasetLineageTypeClass.TRANSFORMED) for u in upstreams])


# t1 <- t2 <- t3 <- t4, t2 <- branch, and t4 feeding t1 back: a cycle.
graph.emit_mcps(
    [
        MetadataChangeProposalWrapper(entityUrn=t2, aspect=lineage(t1)),
        MetadataChangeProposalWrapper(entityUrn=t3, aspect=lineage(t2)),
        MetadataChangeProposalWrapper(entityUrn=t4, aspect=lineage(t3)),
        MetadataChangeProposalWrapper(entityUrn=branch, aspect=lineage(t2)),
        MetadataChangeProposalWrapper(entityUrn=t1, aspect=lineage(t4)),
    ]
)

QUERY = """
query impact($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    start count total
    searchResults { entity { urn type } degree degrees paths { path { urn } } }
  }
}
"""


def search(direction, degrees, **extra):
    data = graph.execute_graphql(
        QUERY,
        variables={"input": {"urn": t1, "direction": direction, "query": "*", "start": 0, "count": 100,
                             "orFilters": [{"and": [{"field": "degree", "values": degrees}]}], **extra}},
    )["searchAcrossLineage"]
    return {
        "total": data["total"],
        "results": [[r["entity"]["urn"], r["entity"]["type"], r["degree"], r["degrees"], [[e["urn"] for e in p["path"]] for p in r["paths"]]] for r in data["searchResults"]],
    }


print_result(
    {
        "downstreamAll": search("DOWNSTREAM", ["1", "2", "3+"]),
        "downstreamFirst": search("DOWNSTREAM", ["1"]),
        "upstreamAll": search("UPSTREAM", ["1", "2", "3+"]),
        "secondPage": search("DOWNSTREAM", ["1", "2", "3+"], start=3),
    }
)
