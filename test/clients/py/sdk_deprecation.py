"""DataHub's deprecation smoke scenario (smoke-test/tests/deprecation) through DataHubGraph.execute_graphql, reading
back with the UI's deprecationFields fragment: update all fields, a partial update, a batch, and un-deprecating."""

from pathlib import Path

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
urn, other, replacement = args["urn"], args["other"], args["replacement"]

# DataHub's own fragments, unchanged, shared with the API tests.
FRAGMENTS = (Path(__file__).resolve().parents[2] / "support" / "datahub-fragments.graphql").read_text()
GET = "query getDataset($urn: String!) { dataset(urn: $urn) { deprecation { ...deprecationFields } } }" + FRAGMENTS
UPDATE = "mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }"
BATCH = "mutation batchUpdateDeprecation($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }"


def read(u):
    return graph.execute_graphql(GET, variables={"urn": u})["dataset"]["deprecation"]


steps = {"before": read(urn)}
full = {"urn": urn, "deprecated": True, "note": "My test note", "decommissionTime": 0, "replacement": replacement}
steps["updateAll"] = graph.execute_graphql(UPDATE, variables={"input": full})
steps["afterAll"] = read(urn)
steps["updatePartial"] = graph.execute_graphql(UPDATE, variables={"input": {"urn": urn, "deprecated": False}})
steps["afterPartial"] = read(urn)
resources = [{"resourceUrn": urn}, {"resourceUrn": other}]
steps["batch"] = graph.execute_graphql(BATCH, variables={"input": {"deprecated": True, "note": "Batch", "resources": resources}})
steps["afterBatch"] = [read(urn), read(other)]
steps["undeprecate"] = graph.execute_graphql(BATCH, variables={"input": {"deprecated": False, "resources": resources}})
steps["afterUndeprecate"] = [read(urn), read(other)]
print_result(steps)
