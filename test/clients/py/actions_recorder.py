"""A DataHub Actions action that records what it receives: each event as one JSON line in the file its config names.

A recipe names it by module and class (`type: actions_recorder:RecordingAction`), as DataHub Actions loads custom
actions; test/clients/py is on the pipeline's PYTHONPATH.
"""

import json

from datahub_actions.action.action import Action
from datahub_actions.event.event_envelope import EventEnvelope
from datahub_actions.pipeline.pipeline_context import PipelineContext


class RecordingAction(Action):
    def __init__(self, path: str):
        self.path = path

    @classmethod
    def create(cls, config_dict: dict, ctx: PipelineContext) -> "Action":
        return cls(config_dict["path"])

    def act(self, event: EventEnvelope) -> None:
        with open(self.path, "a") as out:
            out.write(json.dumps({"type": event.event_type, "event": json.loads(event.event.as_json())}) + "\n")

    def close(self) -> None:
        pass
