"""Reads back, through DataHubGraph, every proposal of a metadata file and reports any that differ from what was sent."""

from pathlib import Path

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.source.file import read_metadata_file

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
checked, differ = 0, []
for item in read_metadata_file(Path(args["file"])):
    assert isinstance(item, MetadataChangeProposalWrapper), item
    aspect_type = type(item.aspect)
    if item.aspect.ASPECT_TYPE == "timeseries":
        # Newest first: the latest value of this aspect of this urn must be the file's newest event.
        values = graph.get_timeseries_values(item.entityUrn, aspect_type, filter={}, limit=1000)
        stored = next((v for v in values if v.timestampMillis == item.aspect.timestampMillis), None)
    else:
        stored = graph.get_aspect(item.entityUrn, aspect_type)
    checked += 1
    expected = item.aspect.to_obj()
    if item.aspectName == "domains" and "domainAssociations" not in expected:
        # DataHub's domains sync hook derives domainAssociations from domains when a write sends only domains.
        expected = {**expected, "domainAssociations": [{"domain": d} for d in expected.get("domains", [])]}
    if stored is None or stored.to_obj() != expected:
        differ.append({"urn": item.entityUrn, "aspect": item.aspectName, "sent": item.aspect.to_obj(), "stored": stored.to_obj() if stored else None})
print_result({"checked": checked, "differ": differ})
