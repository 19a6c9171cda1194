"""Reads through DataHubGraph what the test stored over HTTP, and deprecates through execute_graphql."""

import datahub.metadata.schema_classes as models
from datahub.configuration.common import GraphError

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)
urn, missing = args["urn"], args["missing"]


def obj(aspect):
    return aspect.to_obj() if aspect is not None else None


DEPRECATION = "query getDeprecation($urn: String!) { dataset(urn: $urn) { deprecation { deprecated note decommissionTime actor } } }"
UPDATE = "mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }"


def graphql_error(query, variables):
    try:
        graph.execute_graphql(query, variables=variables)
    except GraphError as e:
        return str(e)
    raise AssertionError("the GraphQL call succeeded")


result = {
    "config": {"noCode": graph.get_config().get("noCode")},
    "latest": obj(graph.get_aspect(urn, models.DatasetPropertiesClass)),
    "oldest": obj(graph.get_aspect(urn, models.DatasetPropertiesClass, version=1)),
    "neverWritten": obj(graph.get_aspect(urn, models.SchemaMetadataClass)),
    "missingEntity": obj(graph.get_aspect(missing, models.DatasetPropertiesClass)),
    "ownership": obj(graph.get_ownership(urn)),
    "tags": obj(graph.get_tags(urn)),
    "exists": [graph.exists(urn), graph.exists(missing)],
    "profiles": [p.rowCount for p in graph.get_timeseries_values(urn, models.DatasetProfileClass, filter={}, limit=2)],
    "latestProfile": obj(graph.get_latest_timeseries_value(urn, models.DatasetProfileClass, {})),
    "noProfiles": graph.get_timeseries_values(missing, models.DatasetProfileClass, filter={}),
    "deprecationBefore": graph.execute_graphql(DEPRECATION, variables={"urn": urn}),
    "update": graph.execute_graphql(
        UPDATE, variables={"input": {"urn": urn, "deprecated": True, "note": "Use orders_v2", "decommissionTime": args["decommissionTime"]}}
    ),
    "deprecationAfter": graph.execute_graphql(DEPRECATION, variables={"urn": urn}),
    "updateMissing": graphql_error(UPDATE, {"input": {"urn": missing, "deprecated": True}}),
    "semityped": {name: obj(a) for name, a in graph.get_entity_semityped(urn).items()},
    "semitypedMissing": sorted(graph.get_entity_semityped(missing).keys()),
    "aspectsForEntity": {
        name: obj(a)
        for name, a in graph.get_aspects_for_entity(
            urn, aspects=["status", "globalTags", "schemaMetadata"], aspect_types=[models.StatusClass, models.GlobalTagsClass, models.SchemaMetadataClass]
        ).items()
    },
    "partitionLatest": obj(
        graph.get_latest_timeseries_value(urn, models.DatasetProfileClass, {"partitionSpec.partition": "2026-01-01"})
    ),
}
print_result(result)
