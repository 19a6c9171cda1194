"""Change events as a DataHub user meets them: the SDK's emitter deprecates a dataset, Almanac POSTs the change to a
webhook (a receiver run here), and the body is read with acryl-datahub's own EntityChangeEventClass, as DataHub
Actions reads a Kafka event (parameters aside, Actions' own way), and its signature checked with hmac."""

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from harness import connect, print_result, read_input

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.metadata.schema_classes import DeprecationClass, EntityChangeEventClass, StatusClass

args = read_input()
graph = connect(args)
urn, secret = args["urn"], args["secret"]
received = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        received.append((dict(self.headers), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *_):
        pass


server = HTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
hook = f"http://127.0.0.1:{server.server_address[1]}/datahub-actions"

graph.execute_graphql(
    "mutation($input: CreateWebhookSubscriptionInput!) { createWebhookSubscription(input: $input) { subscription { id } } }",
    variables={"input": {"url": hook, "secret": secret, "categories": ["DEPRECATION"]}},
)
graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=StatusClass(removed=False)))
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=urn,
        aspect=DeprecationClass(deprecated=True, note="Use the v2 table", actor="urn:li:corpuser:datahub", decommissionTime=1798675200000),
    )
)
deadline = time.time() + 20
while not received and time.time() < deadline:
    time.sleep(0.05)
server.shutdown()
headers, raw = received[0]
body = json.loads(raw)
parameters = body.pop("parameters", None)
event = EntityChangeEventClass.from_obj(body)
expected = "sha256=" + hmac.new(secret.encode(), headers["X-Almanac-Timestamp"].encode() + b"." + raw, hashlib.sha256).hexdigest()
print_result(
    {
        "deliveries": len(received),
        "valid": event.validate(),
        "entityType": event.entityType,
        "entityUrn": event.entityUrn,
        "category": event.category,
        "operation": event.operation,
        "actor": event.auditStamp.actor,
        "version": event.version,
        "parameters": parameters,
        "signatureOk": hmac.compare_digest(expected, headers["X-Almanac-Signature-256"]),
        "eventType": headers["X-Almanac-Event-Type"],
    }
)
