"""Policies through DataHubGraph.execute_graphql: DataHub's smoke-test sequence (create, update, list, delete) as the
administrator, then a policy granting EDIT_DEPRECATION_PRIVILEGE on one dataset to a Reader, seen through the Reader's
own client."""

from datahub.configuration.common import GraphError
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig

from harness import connect, print_result, read_input

args = read_input()
admin = connect(args)
reader = DataHubGraph(DatahubClientConfig(server=args["server"], token=args["readerToken"]))
mine, other, reader_urn = args["mine"], args["other"], args["readerUrn"]

CREATE = "mutation createPolicy($input: PolicyUpdateInput!) {\n  createPolicy(input: $input) }"
UPDATE = "mutation updatePolicy($urn: String!, $input: PolicyUpdateInput!) {\n  updatePolicy(urn: $urn, input: $input) }"
DELETE = "mutation deletePolicy($urn: String!) {\n  deletePolicy(urn: $urn) }"
LIST = """query listPolicies($input: ListPoliciesInput!) {
  listPolicies(input: $input) {
    start count total
    policies { urn type name description state resources { type allResources resources } privileges
      actors { users groups allUsers allGroups resourceOwners } editable }
  }
}"""
DEPRECATE = "mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }"


def listed(urn):
    policies = admin.execute_graphql(LIST, variables={"input": {"start": 0, "count": 20, "query": "*"}})["listPolicies"]["policies"]
    return [p for p in policies if p["urn"] == urn]


def deprecate(urn):
    return reader.execute_graphql(DEPRECATE, variables={"input": {"urn": urn, "deprecated": True, "note": "reader"}})


def refused(urn):
    try:
        deprecate(urn)
    except GraphError as e:
        # execute_graphql raises GraphError with the server's GraphQL errors in its text.
        return {"message": str(e)}
    raise AssertionError("the call succeeded")


steps = {}
# DataHub's smoke test (tests/policies/test_policies.py), its variables as written there.
smoke = admin.execute_graphql(
    CREATE,
    variables={
        "input": {
            "type": "METADATA",
            "name": "Test Metadata Policy",
            "description": "My Metadaata Policy",
            "state": "ACTIVE",
            "resources": {"type": "dataset", "allResources": True},
            "privileges": ["EDIT_ENTITY_TAGS"],
            "actors": {"users": ["urn:li:corpuser:datahub"], "resourceOwners": False, "allUsers": False, "allGroups": False},
        }
    },
)["createPolicy"]
steps["smokeUpdate"] = admin.execute_graphql(
    UPDATE,
    variables={
        "urn": smoke,
        "input": {
            "type": "METADATA",
            "state": "ACTIVE",
            "name": "Test Metadata Policy",
            "description": "Updated Metadaata Policy",
            "privileges": ["EDIT_ENTITY_TAGS", "EDIT_ENTITY_GLOSSARY_TERMS"],
            "actors": {"resourceOwners": False, "allUsers": True, "allGroups": False},
        },
    },
)["updatePolicy"] == smoke
steps["smokeListed"] = listed(smoke)
admin.execute_graphql(DELETE, variables={"urn": smoke})
steps["smokeAfterDelete"] = listed(smoke)

# A Reader may deprecate the one dataset a policy names, and only while the policy exists.
steps["before"] = refused(mine)
grant = admin.execute_graphql(
    CREATE,
    variables={
        "input": {
            "type": "METADATA",
            "name": "Reader may deprecate one dataset",
            "description": "issue 23",
            "state": "ACTIVE",
            "resources": {"filter": {"criteria": [{"field": "URN", "values": [mine], "condition": "EQUALS"}]}},
            "privileges": ["EDIT_DEPRECATION_PRIVILEGE"],
            "actors": {"users": [reader_urn], "resourceOwners": False, "allUsers": False, "allGroups": False},
        }
    },
)["createPolicy"]
steps["granted"] = deprecate(mine)
steps["other"] = refused(other)
admin.execute_graphql(DELETE, variables={"urn": grant})
steps["revoked"] = refused(mine)
print_result(steps)
