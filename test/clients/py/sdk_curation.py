"""Builds entities with the SDK's classes, curates them through DataHub's GraphQL mutations with
DataHubGraph.execute_graphql (as DataHub's UI and users' scripts do), and reads each change back with
DataHubGraph.get_aspect: tags, glossary terms, owners, descriptions and domains, on a dataset, one of its fields and
a container. Ends with a refusal, as the user sees it."""

import datahub.metadata.schema_classes as models
from datahub.configuration.common import GraphError
from datahub.emitter.mce_builder import make_dataset_urn, make_domain_urn, make_tag_urn, make_term_urn, make_user_urn
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

answers = []
for name, input_type, value in MUTATIONS:
    result = graph.execute_graphql(f"mutation m($input: {input_type}!) {{ {name}(input: $input) }}", variables={"input": value})
    answers.append([name, result[name]])
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
        "refused": refused,
    }
)
