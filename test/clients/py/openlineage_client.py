"""Reports a job through OpenLineage's own Python client (its HTTP transport, bearer auth, DataHub's endpoint): a run
that reads two datasets and writes one, with schema and column lineage facets, START then COMPLETE, then a second run
that FAILs; then reads what DataHub's converter would have made of it back through DataHubGraph and GraphQL."""

import uuid
from datetime import datetime, timezone

import datahub.metadata.schema_classes as models
from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, schema_dataset
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

from harness import connect, print_result, read_input

args = read_input()
NAMESPACE = "postgres://warehouse:5432"

client = OpenLineageClient(
    transport=HttpTransport(
        HttpConfig(
            url=args["server"],
            endpoint="openapi/openlineage/api/v1/lineage",
            auth=ApiKeyTokenProvider({"apiKey": args["token"]}),
        )
    )
)


def schema(*fields):
    return {"schema": schema_dataset.SchemaDatasetFacet(fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type=t) for n, t in fields])}


def column(name, field):
    return column_lineage_dataset.InputField(
        namespace=NAMESPACE,
        name=name,
        field=field,
        transformations=[column_lineage_dataset.Transformation(type="DIRECT", subtype="IDENTITY")],
    )


inputs = [
    InputDataset(namespace=NAMESPACE, name="shop.public.orders", facets=schema(("id", "int"), ("user_id", "int"))),
    InputDataset(namespace=NAMESPACE, name="shop.public.users", facets=schema(("id", "int"), ("name", "string"))),
]
output_facets = schema(("order_id", "long"), ("user_name", "string"))
output_facets["columnLineage"] = column_lineage_dataset.ColumnLineageDatasetFacet(
    fields={
        "order_id": column_lineage_dataset.Fields(inputFields=[column("shop.public.orders", "id")]),
        "user_name": column_lineage_dataset.Fields(inputFields=[column("shop.public.users", "name")]),
    }
)
outputs = [OutputDataset(namespace=NAMESPACE, name="shop.public.order_report", facets=output_facets)]
job = Job(namespace="nightly", name="reports.order_report")


def emit(state, run_id):
    client.emit(
        RunEvent(
            eventType=state,
            eventTime=datetime.now(timezone.utc).isoformat(),
            run=Run(runId=run_id),
            job=job,
            inputs=inputs,
            outputs=outputs,
        )
    )


succeeded, failed = str(uuid.uuid4()), str(uuid.uuid4())
emit(RunState.START, succeeded)
emit(RunState.COMPLETE, succeeded)
emit(RunState.START, failed)
emit(RunState.FAIL, failed)

graph = connect(args)
dataset = "urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.{},PROD)".format
flow_urn = "urn:li:dataFlow:(python,reports,nightly)"
job_urn = f"urn:li:dataJob:({flow_urn},reports.order_report)"

io = graph.get_aspect(job_urn, models.DataJobInputOutputClass)
schema_metadata = graph.get_aspect(dataset("order_report"), models.SchemaMetadataClass)


def run_events(run_id):
    values = graph.get_timeseries_values(f"urn:li:dataProcessInstance:{run_id}", models.DataProcessInstanceRunEventClass, filter={}, limit=10)
    return sorted([[v.status, v.result.type if v.result else None] for v in values], key=lambda e: e[0] != "STARTED")


LINEAGE = """
query upstreams($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) { total searchResults { entity { urn type } degree } }
}
"""
upstream = graph.execute_graphql(
    LINEAGE,
    variables={"input": {"urn": dataset("order_report"), "direction": "UPSTREAM", "query": "*", "start": 0, "count": 20}},
)["searchAcrossLineage"]

RUNS = """
query runs($urn: String!) {
  dataJob(urn: $urn) {
    properties { name }
    runs(start: 0, count: 10) { total runs { urn properties { name } parentTemplate { urn } } }
  }
}
"""
job_view = graph.execute_graphql(RUNS, variables={"urn": job_urn})["dataJob"]

print_result(
    {
        "inputs": [e.destinationUrn for e in io.inputDatasetEdges or []],
        "outputs": [e.destinationUrn for e in io.outputDatasetEdges or []],
        "columns": [[f.upstreams, f.downstreams, f.transformOperation] for f in io.fineGrainedLineages or []],
        "schema": [[f.fieldPath, f.nativeDataType] for f in schema_metadata.fields],
        "succeeded": run_events(succeeded),
        "failed": run_events(failed),
        "upstream": sorted([r["entity"]["urn"], r["entity"]["type"], r["degree"]] for r in upstream["searchResults"]),
        "jobName": job_view["properties"]["name"],
        "runs": sorted([r["urn"], r["properties"]["name"], r["parentTemplate"]["urn"]] for r in job_view["runs"]["runs"]),
        "runIds": {"succeeded": succeeded, "failed": failed},
    }
)
