"""What every script here shares: read the test's JSON input from stdin, print one JSON result on stdout.

Scripts run DataHub's real Python package against a test server; test/support/datahub-client.ts starts them.
"""

import json
import sys
from typing import Any, Callable, Dict

from datahub.configuration.common import OperationalError
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig


def read_input() -> Dict[str, Any]:
    """The test's input: always `server` and `token`, plus what the script needs."""
    return json.load(sys.stdin)


def connect(args: Dict[str, Any]) -> DataHubGraph:
    """A DataHubGraph as users build one; its constructor already calls test_connection."""
    return DataHubGraph(DatahubClientConfig(server=args["server"], token=args["token"]))


def refusal(call: Callable[[], Any]) -> Dict[str, Any]:
    """Runs a call the server should refuse and returns what the user sees: the message and the server's answer."""
    try:
        call()
    except OperationalError as e:
        return {"message": e.message, "info": e.info}
    raise AssertionError("the call succeeded")


def print_result(result: Dict[str, Any]) -> None:
    print(json.dumps(result, sort_keys=True))
