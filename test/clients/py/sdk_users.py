"""DataHub's user flow as its token smoke tests drive it: an admin invites through DataHubGraph.execute_graphql, a new
user signs up at /signUp and creates a token with the session cookie, then the admin suspends, reactivates and removes
the user; after each step the user's token is tried."""

from typing import Any, Dict

import requests
from harness import connect, print_result, read_input

from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig

args = read_input()
server = args["server"]
admin = connect(args)
email = args["email"]
urn = f"urn:li:corpuser:{email}"


def who_am_i(token: str) -> Dict[str, Any]:
    res = requests.get(
        f"{server}/openapi/operations/identity/user/urn",
        params={"skipCache": "true"},
        headers={"Authorization": f"Bearer {token}"},
    )
    return {"status": res.status_code, "body": res.json()}


def graphql_as(token: str) -> Any:
    """The user's own DataHubGraph; a refusal is reported as its error text."""
    try:
        graph = DataHubGraph(DatahubClientConfig(server=server, token=token))
        return graph.execute_graphql("{ me { corpUser { urn } } }")["me"]["corpUser"]["urn"]
    except Exception as e:  # the SDK raises its own error types for a 401
        return {"error": type(e).__name__, "message": str(e)[:300]}


invite = admin.execute_graphql(
    "mutation createInviteToken($input: CreateInviteTokenInput!) { createInviteToken(input: $input) { inviteToken } }",
    variables={"input": {"roleUrn": "urn:li:dataHubRole:Reader"}},
)["createInviteToken"]["inviteToken"]

session = requests.Session()
signed_up = session.post(
    f"{server}/signUp",
    json={"fullName": "Test User", "email": email, "password": args["password"], "title": "Data Engineer", "inviteToken": invite},
)
signed_up.raise_for_status()
created = session.post(
    f"{server}/api/v2/graphql",
    json={
        "query": """mutation createAccessToken($input: CreateAccessTokenInput!) {
            createAccessToken(input: $input) { accessToken metadata { id actorUrn } }
        }""",
        "variables": {"input": {"type": "PERSONAL", "actorUrn": urn, "duration": "ONE_HOUR", "name": "smoke token"}},
    },
).json()
token = created["data"]["createAccessToken"]["accessToken"]

result: Dict[str, Any] = {"cookies": sorted(session.cookies.keys()), "tokenActor": created["data"]["createAccessToken"]["metadata"]["actorUrn"]}
result["active"] = {"whoAmI": who_am_i(token), "graphql": graphql_as(token)}


def set_status(status: str) -> Any:
    return admin.execute_graphql(
        "mutation updateUserStatus($urn: String!, $status: CorpUserStatus!) { updateUserStatus(urn: $urn, status: $status) }",
        variables={"urn": urn, "status": status},
    )["updateUserStatus"]


result["suspend"] = set_status("SUSPENDED")
result["suspended"] = {"whoAmI": who_am_i(token)["status"], "graphql": graphql_as(token)}
result["reactivate"] = set_status("ACTIVE")
result["reactivated"] = {"whoAmI": who_am_i(token)["status"], "graphql": graphql_as(token)}
listed = admin.execute_graphql(
    "query listUsers($input: ListUsersInput!) { listUsers(input: $input) { total users { username status } } }",
    variables={"input": {"start": 0, "count": 20, "query": email}},
)["listUsers"]
result["listed"] = listed["users"]
result["remove"] = admin.execute_graphql("mutation removeUser($urn: String!) { removeUser(urn: $urn) }", variables={"urn": urn})["removeUser"]
result["removed"] = {"whoAmI": who_am_i(token)["status"], "graphql": graphql_as(token)}
print_result(result)
