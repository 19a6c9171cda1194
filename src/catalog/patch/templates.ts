import type { Json } from '../../storage/store.ts';

/** An array field patched as a map keyed by its elements' key fields (none: keyed by the value itself). */
export interface ArrayField {
  /** Path of the array inside the record, e.g. ['tags'] or ['globalTags', 'tags'] inside an element. */
  readonly path: readonly string[];
  /** Key fields in map nesting order; a key with `␟` names a nested field (attribution␟source). */
  readonly keys: readonly string[];
  /** Arrays inside each element, keyed the same way. */
  readonly nested?: readonly ArrayField[];
}

/** How DataHub's aspect template patches one aspect: its keyed arrays and its default when the aspect is missing. */
export interface PatchTemplate {
  readonly arrays: readonly ArrayField[];
  readonly getDefault: (now: number) => Json;
  /** `fineGrainedLineages` is keyed by operation, downstream, query and upstream (DataHub's FineGrainedLineageTemplateHelper). */
  readonly fineGrained?: true;
  /** Fills what DataHub's template sets on the patched value (its `rebaseFields`), such as a required audit stamp. */
  readonly rebase?: (doc: Record<string, unknown>, now: number) => void;
}

const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';
const stamp = (now: number) => ({ actor: SYSTEM_ACTOR, time: now });
const field = (name: string, keys: readonly string[] = [], nested?: readonly ArrayField[]): ArrayField => ({ path: [name], keys, nested });
const edges = (...names: string[]) => names.map((n) => field(n, ['destinationUrn']));
const byValue = (...names: string[]) => names.map((n) => field(n));
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** DataHub's GlossaryTermsTemplate sets the required (deprecated) `auditStamp` on every terms record it patches. */
function stampTerms(terms: unknown, now: number): void {
  if (isObj(terms) && terms.auditStamp === undefined) terms.auditStamp = stamp(now);
}

/**
 * DataHub's registered aspect templates (entity-registry's aspect/patch/template
 * package): the aspects a plain JSON Patch array may target. Any other aspect
 * is patched only through the generic envelope with `arrayPrimaryKeys`.
 */
export const PATCH_TEMPLATES: ReadonlyMap<string, PatchTemplate> = new Map<string, PatchTemplate>([
  ['globalTags', { arrays: [field('tags', ['tag'])], getDefault: () => ({ tags: [] }) }],
  [
    'glossaryTerms',
    { arrays: [field('terms', ['urn'])], getDefault: (now) => ({ terms: [], auditStamp: stamp(now) }), rebase: (doc, now) => stampTerms(doc, now) },
  ],
  ['ownership', { arrays: [field('owners', ['owner', 'type'])], getDefault: (now) => ({ owners: [], lastModified: stamp(now) }) }],
  [
    'upstreamLineage',
    { arrays: [field('upstreams', ['dataset'])], getDefault: () => ({ upstreams: [], fineGrainedLineages: [] }), fineGrained: true },
  ],
  ['datasetProperties', { arrays: byValue('tags'), getDefault: () => ({ tags: [], customProperties: {} }) }],
  ['editableDatasetProperties', { arrays: [], getDefault: () => ({}) }],
  [
    'editableSchemaMetadata',
    {
      arrays: [
        field(
          'editableSchemaFieldInfo',
          ['fieldPath'],
          [
            { path: ['globalTags', 'tags'], keys: ['tag'] },
            { path: ['glossaryTerms', 'terms'], keys: ['urn'] },
          ],
        ),
      ],
      getDefault: (now) => ({ created: stamp(now), lastModified: stamp(now), editableSchemaFieldInfo: [] }),
      // A field's terms get their audit stamp too (the field's GlossaryTermsTemplate), e.g. when a patch adds its first term.
      rebase: (doc, now) => {
        const fields = doc.editableSchemaFieldInfo;
        if (Array.isArray(fields)) for (const f of fields) if (isObj(f)) stampTerms(f.glossaryTerms, now);
      },
    },
  ],
  [
    'dataJobInputOutput',
    {
      arrays: [...edges('inputDatajobEdges', 'inputDatasetEdges', 'outputDatasetEdges'), ...byValue('inputDatasetFields', 'outputDatasetFields')],
      getDefault: () => ({
        inputDatajobEdges: [],
        inputDatasetEdges: [],
        outputDatasetEdges: [],
        fineGrainedLineages: [],
        inputDatasetFields: [],
        outputDatasetFields: [],
        inputDatajobs: [],
        inputDatasets: [],
        outputDatasets: [],
      }),
      fineGrained: true,
    },
  ],
  ['dataFlowInfo', { arrays: [], getDefault: () => ({ customProperties: {} }) }],
  ['dataJobInfo', { arrays: [], getDefault: () => ({ customProperties: {} }) }],
  [
    'chartInfo',
    {
      arrays: [...edges('inputEdges'), ...byValue('inputs')],
      getDefault: (now) => ({
        title: '',
        description: '',
        lastModified: { created: stamp(now), lastModified: stamp(now) },
        inputEdges: [],
        inputs: [],
      }),
    },
  ],
  [
    'dashboardInfo',
    {
      arrays: [...edges('chartEdges', 'datasetEdges', 'dashboards'), ...byValue('datasets', 'charts')],
      getDefault: (now) => ({
        title: '',
        description: '',
        lastModified: { created: stamp(now), lastModified: stamp(now) },
        chartEdges: [],
        datasetEdges: [],
        datasets: [],
        charts: [],
      }),
    },
  ],
  ['dataProductProperties', { arrays: edges('assets'), getDefault: () => ({ assets: [] }) }],
  ['structuredProperties', { arrays: [field('properties', ['propertyUrn'])], getDefault: () => ({ properties: [] }) }],
  ['documentation', { arrays: [field('documentations', ['attribution\u241fsource'])], getDefault: () => ({ documentations: [] }) }],
  ['domains', { arrays: byValue('domains'), getDefault: () => ({ domains: [] }) }],
  ['siblings', { arrays: byValue('siblings'), getDefault: () => ({ siblings: [], primary: false }) }],
  ['status', { arrays: [], getDefault: () => ({ removed: false }) }],
  ['editableContainerProperties', { arrays: [], getDefault: () => ({}) }],
  ['editableMlModelGroupProperties', { arrays: [], getDefault: () => ({}) }],
  ['formInfo', { arrays: [field('prompts', ['id'])], getDefault: () => ({ name: '' }) }],
]);
