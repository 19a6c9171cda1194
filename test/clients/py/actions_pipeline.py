"""DataHub Actions, installed for real, against Almanac: `datahub-actions actions run -c <recipe>` with the
`datahub-cloud` event source (it polls /openapi/v1/events/poll and keeps its offset on the server as a
platformResource), run as a user runs it.

1. A recording action (actions_recorder.py) gets the Entity Change Events of a tag added through the SDK, a
   deprecation set through GraphQL and a hard delete.
2. Stopped as a container runtime stops it (SIGTERM: it stores its offset as it closes) and started again, it gets
   only what changed in between.
3. DataHub's own `tag_propagation` action copies a tag added upstream onto the downstream dataset.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from harness import connect, print_result, read_input

from datahub.emitter.mce_builder import make_dataset_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    GlobalTagsClass,
    StatusClass,
    TagAssociationClass,
    UpstreamClass,
    UpstreamLineageClass,
)
from datahub.specific.dataset import DatasetPatchBuilder

args = read_input()
graph = connect(args)
here = os.path.dirname(os.path.abspath(__file__))
actions_cli = os.path.join(os.path.dirname(sys.executable), "datahub-actions")
work = tempfile.mkdtemp(prefix="almanac-actions-")


def recipe(name, action):
    """A recipe as users write one: the datahub-cloud source, lookback so the first run reads today's events."""
    return {
        "name": name,
        "datahub": {"server": args["server"], "token": args["token"]},
        "source": {"type": "datahub-cloud", "config": {"topics": ["PlatformEvent_v1"], "lookback_days": 1}},
        "action": action,
    }


def start(config):
    path = os.path.join(work, f"{config['name']}-{time.time_ns()}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    env = {**os.environ, "PYTHONPATH": here, "DATAHUB_TELEMETRY_ENABLED": "false"}
    return subprocess.Popen([actions_cli, "actions", "run", "-c", path], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def stop(proc, timeout=60):
    """SIGTERM, as a container runtime stops it: the pipeline closes, and its source stores its offset."""
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=timeout)
    if proc.returncode != 0 or "Stored offset id" not in out:
        raise SystemExit(f"datahub-actions exited with {proc.returncode}, offset stored: {'Stored offset id' in out}:\n{out}")
    return out


def recorded(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def changes(path, urn):
    """(category, operation, modifier) of each Entity Change Event of the urn the recorder got."""
    return [
        [r["event"]["category"], r["event"]["operation"], r["event"].get("modifier")]
        for r in recorded(path)
        if r["type"] == "EntityChangeEvent_v1" and r["event"]["entityUrn"] == urn
    ]


def wait_for(condition, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def add_tag(urn, tag):
    patch = DatasetPatchBuilder(urn).add_tag(TagAssociationClass(tag=tag))
    for mcp in patch.build():
        graph.emit_mcp(mcp)


# 1. The recording action.
tagged = make_dataset_urn("hive", f"actions.tagged.{args['suffix']}")
deprecated = make_dataset_urn("hive", f"actions.deprecated.{args['suffix']}")
deleted = make_dataset_urn("hive", f"actions.deleted.{args['suffix']}")
later = make_dataset_urn("hive", f"actions.later.{args['suffix']}")
for urn in (tagged, deprecated, deleted):
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=StatusClass(removed=False)))

log = os.path.join(work, "recorded.jsonl")
recorder = recipe("almanac_recorder", {"type": "actions_recorder:RecordingAction", "config": {"path": log}})
proc = start(recorder)
add_tag(tagged, "urn:li:tag:pii")
graph.execute_graphql(
    "mutation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }",
    variables={"input": {"urn": deprecated, "deprecated": True, "note": "use v2"}},
)
graph.hard_delete_entity(deleted)
wait_for(lambda: len(changes(log, deleted)) >= 2 and len(changes(log, tagged)) >= 2 and len(changes(log, deprecated)) >= 2)
stop(proc)
first_run = {"tagged": changes(log, tagged), "deprecated": changes(log, deprecated), "deleted": changes(log, deleted)}
first_count = len(recorded(log))

# 2. Stopped; a change while it is down; started again, it resumes from the offset it stored.
graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=later, aspect=StatusClass(removed=False)))
add_tag(later, "urn:li:tag:later")
proc = start(recorder)
wait_for(lambda: len(changes(log, later)) >= 2)
time.sleep(3)  # more polls: anything replayed would come now
stop(proc)
# The datasets of this script (the server may record other events meanwhile, a scheduled task's end).
second_run = [
    [r["event"]["entityUrn"], r["event"]["category"], r["event"]["operation"]]
    for r in recorded(log)[first_count:]
    if r["type"] == "EntityChangeEvent_v1" and ",actions." in r["event"]["entityUrn"]
]

# 3. tag_propagation: a tag added upstream reaches the downstream dataset.
upstream = make_dataset_urn("hive", f"actions.upstream.{args['suffix']}")
downstream = make_dataset_urn("hive", f"actions.downstream.{args['suffix']}")
graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=upstream, aspect=StatusClass(removed=False)))
graph.emit_mcp(
    MetadataChangeProposalWrapper(
        entityUrn=downstream,
        aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=upstream, type=DatasetLineageTypeClass.TRANSFORMED)]),
    )
)
propagator = start(recipe("almanac_tag_propagation", {"type": "tag_propagation", "config": {"tag_prefixes": ["classification"]}}))
add_tag(upstream, "urn:li:tag:classification.pii")
propagated = wait_for(
    lambda: any(t.tag == "urn:li:tag:classification.pii" for t in (graph.get_aspect(downstream, GlobalTagsClass) or GlobalTagsClass(tags=[])).tags)
)
stop(propagator)
downstream_tags = graph.get_aspect(downstream, GlobalTagsClass)

print_result(
    {
        "first": first_run,
        "second": second_run,
        "propagated": propagated,
        "downstreamTags": sorted(t.tag for t in (downstream_tags.tags if downstream_tags else [])),
    }
)
