"""Builds entities with the SDK's classes, curates them through DataHub's GraphQL mutations with
DataHubGraph.execute_graphql (as DataHub's UI and users' scripts do), and reads each change back with
DataHubGraph.get_aspect: tags, glossary terms, owners, descriptions and domains, on a dataset, one of its fields and
a container; then tags, terms, owners and a description on one entity of each other curated type (chart, dashboard,
data flow, data job, ML model, glossary term; a description where DataHub's updateDescription takes one). Ends with
a refusal, as the user sees it."""

import datahub.metadata.schema_classes as models
from datahub.configuration.common import GraphError
from datahub.emitter.mce_builder import (
    make_chart_urn,
    make_dashboard_urn,
    make_data_flow_urn,
    make_data_job_urn,
    make_dataset_urn,
    make_domain_urn,
    make_ml_model_urn,
    make_tag_urn,
    make_term_urn,
    make_user_urn,
)
from datahub.emitter.mcp import MetadataChangeProposalWrapper

from harness import connect, print_result, read_input

args = read_input()
graph = connect(args)

dataset = make_dataset_urn("postgres", "shop.public.orders", "PROD")
container = "urn:li:container:curation-shop"
tag, term, domain, owner = make_tag_urn("pii"), make_term_urn("Classification.Sensitive"), make_domain_urn("sales"), make_user_urn("jdoe")

string = models.SchemaFieldDataTypeClass(type=models.StringTypeClass())
graph.emit_mcps(
    [
        MetadataChangeProposalWrapper(
            entityUrn=dataset,
            aspect=models.SchemaMetadataClass(
                schemaName="orders",
                platform="urn:li:dataPlatform:postgres",
                version=0,
                hash="",
                platformSchema=models.OtherSchemaClass(rawSchema=""),
                fields=[
                    models.SchemaFieldClass(fieldPath="id", type=string, nativeDataType="text"),
                    models.SchemaFieldClass(fieldPath="email", type=string, nativeDataType="text"),
                ],
            ),
        ),
        MetadataChangeProposalWrapper(entityUrn=container, aspect=models.ContainerPropertiesClass(name="shop")),
        MetadataChangeProposalWrapper(entityUrn=tag, aspect=models.TagPropertiesClass(name="pii")),
        MetadataChangeProposalWrapper(entityUrn=term, aspect=models.GlossaryTermInfoClass(definition="Sensitive", termSource="INTERNAL")),
        MetadataChangeProposalWrapper(entityUrn=domain, aspect=models.DomainPropertiesClass(name="Sales")),
        MetadataChangeProposalWrapper(entityUrn=owner, aspect=models.CorpUserInfoClass(active=True, displayName="J. Doe")),
    ]
)

field = {"resourceUrn": dataset, "subResourceType": "DATASET_FIELD", "subResource": "email"}
MUTATIONS = [
    ("addTags", "AddTagsInput", {"tagUrns": [tag], "resourceUrn": dataset}),
    ("addTag", "TagAssociationInput", {"tagUrn": tag, **field}),
    ("batchAddTags", "BatchAddTagsInput", {"tagUrns": [tag], "resources": [{"resourceUrn": container}]}),
    ("addTerms", "AddTermsInput", {"termUrns": [term], "resourceUrn": dataset}),
    ("addTerm", "TermAssociationInput", {"termUrn": term, **field}),
    ("addOwner", "AddOwnerInput", {"ownerUrn": owner, "ownerEntityType": "CORP_USER", "type": "TECHNICAL_OWNER", "resourceUrn": dataset}),
    ("batchAddOwners", "BatchAddOwnersInput", {"owners": [{"ownerUrn": owner, "ownerEntityType": "CORP_USER", "type": "BUSINESS_OWNER"}], "resources": [{"resourceUrn": container}]}),
    ("updateDescription", "DescriptionUpdateInput", {"description": "One row per order", "resourceUrn": dataset}),
    ("updateDescription", "DescriptionUpdateInput", {"description": "Where we write", **field}),
    ("updateDescription", "DescriptionUpdateInput", {"description": "The shop's schema", "resourceUrn": container}),
    ("batchSetDomain", "BatchSetDomainInput", {"domainUrn": domain, "resources": [{"resourceUrn": dataset}, {"resourceUrn": container}]}),
]

# One entity of each other type, built with the SDK's classes, and the aspect its description is edited into.
stamps = models.ChangeAuditStampsClass()
OTHERS = {
    "chart": (make_chart_urn("looker", "curation_chart"), models.ChartInfoClass(title="Orders", description="", lastModified=stamps), models.EditableChartPropertiesClass),
    "dashboard": (make_dashboard_urn("looker", "curation_dash"), models.DashboardInfoClass(title="Sales", description="", lastModified=stamps), models.EditableDashboardPropertiesClass),
    "dataFlow": (make_data_flow_urn("airflow", "curation_flow"), models.DataFlowInfoClass(name="curation_flow"), models.EditableDataFlowPropertiesClass),
    "dataJob": (make_data_job_urn("airflow", "curation_flow", "load"), models.DataJobInfoClass(name="load", type="COMMAND"), models.EditableDataJobPropertiesClass),
    "mlModel": (make_ml_model_urn("mlflow", "curation_model", "PROD"), models.MLModelPropertiesClass(name="curation_model"), models.EditableMLModelPropertiesClass),
    "glossaryTerm": (term, None, models.GlossaryTermInfoClass),
}
graph.emit_mcps([MetadataChangeProposalWrapper(entityUrn=urn, aspect=info) for urn, info, _ in OTHERS.values() if info is not None])
others = [{"resourceUrn": urn} for urn, _, _ in OTHERS.values()]
MUTATIONS += [
    ("batchAddTags", "BatchAddTagsInput", {"tagUrns": [tag], "resources": others}),
    ("batchAddTerms", "BatchAddTermsInput", {"termUrns": [term], "resources": [r for r in others if r["resourceUrn"] != term]}),
    ("batchAddOwners", "BatchAddOwnersInput", {"owners": [{"ownerUrn": owner, "ownerEntityType": "CORP_USER", "type": "TECHNICAL_OWNER"}], "resources": others}),
] + [
    # DataHub's updateDescription takes these two of them; a chart's, dashboard's, flow's or job's description is
    # DataHub's updateChart / updateDashboard / updateDataFlow / updateDataJob (below).
    ("updateDescription", "DescriptionUpdateInput", {"description": f"About the {kind}", "resourceUrn": OTHERS[kind][0]})
    for kind in ("mlModel", "glossaryTerm")
]

answers = []
for name, input_type, value in MUTATIONS:
    result = graph.execute_graphql(f"mutation m($input: {input_type}!) {{ {name}(input: $input) }}", variables={"input": value})
    answers.append([name, result[name]])
for kind in ("chart", "dashboard", "dataFlow", "dataJob"):
    type_name = kind[0].upper() + kind[1:]
    updated = graph.execute_graphql(
        f"mutation u($urn: String!, $input: {type_name}UpdateInput!) {{ update{type_name}(urn: $urn, input: $input) {{ urn }} }}",
        variables={"urn": OTHERS[kind][0], "input": {"editableProperties": {"description": f"About the {kind}"}}},
    )
    answers.append([f"update{type_name}", updated[f"update{type_name}"]["urn"] == OTHERS[kind][0]])
answers.append(["removeTag", graph.execute_graphql("mutation { removeTag(input: {tagUrn: \"%s\", resourceUrn: \"%s\"}) }" % (tag, container))["removeTag"]])
answers.append(["setDomain", graph.execute_graphql("mutation m($e: String!, $d: String!) { setDomain(entityUrn: $e, domainUrn: $d) }", variables={"e": dataset, "d": domain})["setDomain"]])


def aspect(urn, cls):
    value = graph.get_aspect(urn, cls)
    return None if value is None else value.to_obj()


try:
    graph.execute_graphql(
        "mutation m($input: TagAssociationInput!) { addTag(input: $input) }",
        variables={"input": {"tagUrn": tag, "resourceUrn": dataset, "subResourceType": "DATASET_FIELD", "subResource": "nope"}},
    )
    refused = None
except GraphError as e:
    refused = e.args[0]

print_result(
    {
        "answers": answers,
        "globalTags": aspect(dataset, models.GlobalTagsClass),
        "glossaryTerms": aspect(dataset, models.GlossaryTermsClass),
        "ownership": aspect(dataset, models.OwnershipClass),
        "editableDatasetProperties": aspect(dataset, models.EditableDatasetPropertiesClass),
        "editableSchemaMetadata": aspect(dataset, models.EditableSchemaMetadataClass),
        "domains": aspect(dataset, models.DomainsClass),
        "container": {
            "globalTags": aspect(container, models.GlobalTagsClass),
            "ownership": aspect(container, models.OwnershipClass),
            "editableContainerProperties": aspect(container, models.EditableContainerPropertiesClass),
            "domains": aspect(container, models.DomainsClass),
        },
        "others": {
            kind: {
                "tags": [t["tag"] for t in (aspect(urn, models.GlobalTagsClass) or {}).get("tags", [])],
                # A glossary term has no glossaryTerms aspect of its own.
                "terms": [] if kind == "glossaryTerm" else [t["urn"] for t in (aspect(urn, models.GlossaryTermsClass) or {}).get("terms", [])],
                "owners": [o["owner"] for o in (aspect(urn, models.OwnershipClass) or {}).get("owners", [])],
                "description": (aspect(urn, editable) or {}).get("description", (aspect(urn, editable) or {}).get("definition")),
            }
            for kind, (urn, _, editable) in OTHERS.items()
        },
        "refused": refused,
    }
)
