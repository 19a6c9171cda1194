"""Deletes through DataHubGraph (soft, undone, hard) and truncates a timeseries index the way the datahub-gc job does."""

from datetime import datetime, timezone

import datahub.metadata.schema_classes as models
from datahub.ingestion.api.common import PipelineContext
from datahub.ingestion.source.gc.datahub_gc import DataHubGcSource, DataHubGcSourceConfig

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
soft, restored, hard, window = args["soft"], args["restored"], args["hard"], args["window"]


def removed(urn):
    status = graph.get_aspect(urn, models.StatusClass)
    return status.removed if status is not None else None


graph.soft_delete_entity(soft)
graph.soft_delete_entity(restored)
graph.set_soft_delete_status(restored, delete=False)
hard_counts = graph.hard_delete_entity(hard)
at = lambda millis: datetime.fromtimestamp(millis / 1000, tz=timezone.utc)  # noqa: E731
window_rows = graph.hard_delete_timeseries_aspect(window, "datasetProfile", at(args["start"]), at(args["end"]))

gc = DataHubGcSource(PipelineContext(run_id="almanac-client-test", graph=graph), DataHubGcSourceConfig())
dry_run = gc.truncate_timeseries_util(aspect="operation", days_ago=30, dry_run=True, entity_type="dataset")
real_run = gc.truncate_timeseries_util(aspect="operation", days_ago=30, dry_run=False, entity_type="dataset")

print_result(
    {
        "soft": {"removed": removed(soft), "exists": graph.exists(soft)},
        "restored": {"removed": removed(restored)},
        "hard": {"exists": graph.exists(hard), "properties": graph.get_aspect(hard, models.DatasetPropertiesClass), "counts": hard_counts},
        "window": {"rows": window_rows, "exists": graph.exists(window)},
        "truncation": {"dryRun": dry_run, "realRun": real_run},
    }
)
