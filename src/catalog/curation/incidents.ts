import crypto from 'node:crypto';
import type { Catalog } from '../catalog.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseUrn } from '../urn.ts';
import type { Json, Parts } from '../../storage/store.ts';
import { type AspectEdits, auditStampOf } from './aspect-edits.ts';

const INCIDENT = 'incident';
const INFO = 'incidentInfo';

/** DataHub's IncidentStatusInput and UpdateIncidentStatusInput. */
export interface IncidentStatusInput {
  readonly state: string;
  readonly stage?: string | null;
  readonly message?: string | null;
}

/** DataHub's RaiseIncidentInput. */
export interface RaiseIncidentInput {
  readonly type: string;
  readonly customType?: string | null;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly resourceUrn?: string | null;
  readonly resourceUrns?: readonly string[] | null;
  readonly startedAt?: number | null;
  readonly status?: IncidentStatusInput | null;
  readonly priority?: string | null;
  readonly assigneeUrns?: readonly string[] | null;
}

/** DataHub's UpdateIncidentInput. */
export interface UpdateIncidentInput {
  readonly title?: string | null;
  readonly description?: string | null;
  readonly startedAt?: number | null;
  readonly status?: IncidentStatusInput | null;
  readonly priority?: string | null;
  readonly resourceUrns?: readonly string[] | null;
  readonly assigneeUrns?: readonly string[] | null;
}

/** IncidentUtils.mapIncidentPriority: P0 is critical. */
const PRIORITY: Readonly<Record<string, number>> = { LOW: 3, MEDIUM: 2, HIGH: 1, CRITICAL: 0 };

const MISSING = 'Failed to update incident. Incident does not exist.';

/** IncidentUtils.mapIncidentAssignees: each assigned now, by the caller. */
const assigneesOf = (urns: readonly string[], stamp: Json): Json[] => urns.map((a) => ({ actor: parseUrn(a).raw, assignedAt: stamp }));

function statusOf(input: IncidentStatusInput | null | undefined, stamp: Json): Json {
  if (!input) return { state: 'ACTIVE', lastUpdated: stamp };
  return {
    state: input.state,
    ...(input.stage != null ? { stage: input.stage } : {}),
    ...(input.message != null ? { message: input.message } : {}),
    lastUpdated: stamp,
  };
}

/**
 * DataHub's incidents (RaiseIncidentResolver, UpdateIncidentStatusResolver): an incident entity whose incidentInfo
 * names the entities it is raised on; its status is changed by whoever may edit the incidents of the first of them.
 */
export class Incidents {
  constructor(
    private readonly ports: Pick<Parts, 'aspects'>,
    private readonly catalog: Catalog,
    private readonly edits: AspectEdits,
  ) {}

  /** The entities an incident's privilege is checked on: resourceUrn and resourceUrns, each once (DataHub's order). */
  static resourcesOf(input: RaiseIncidentInput): string[] {
    const urns = [...new Set((input.resourceUrns ?? []).map((u) => parseUrn(u).raw))];
    if (input.resourceUrn != null && !urns.includes(parseUrn(input.resourceUrn).raw)) urns.push(parseUrn(input.resourceUrn).raw);
    if (urns.length === 0) throw badRequest('At least 1 resource urn must be defined to raise an incident.');
    return urns;
  }

  /** The entity an existing incident's status is guarded by: the first it names (DataHub's NOT_FOUND when none). */
  async resourceOf(incidentUrn: string): Promise<string> {
    return (await this.resourcesOfIncident(incidentUrn))[0]!;
  }

  /** Every entity an existing incident names (DataHub's NOT_FOUND when it has no incidentInfo). */
  async resourcesOfIncident(incidentUrn: string): Promise<string[]> {
    const info = (await this.ports.aspects.getAspect(parseUrn(incidentUrn).raw, INFO))?.value;
    const entities = Array.isArray(info?.entities) ? info.entities.filter((u): u is string => typeof u === 'string') : [];
    if (entities.length === 0) throw notFound(MISSING);
    return entities;
  }

  /**
   * The entities updateIncident's privilege is checked on (UpdateIncidentResolver.verifyAuthorizationOrThrow): those
   * the incident names now, then the new ones its input names.
   */
  async resourcesToUpdate(incidentUrn: string, input: UpdateIncidentInput): Promise<string[]> {
    const existing = await this.resourcesOfIncident(incidentUrn);
    return [...new Set([...existing, ...Incidents.newResources(input)])];
  }

  /** UpdateIncidentInput.resourceUrns, parsed; DataHub refuses an empty list. */
  private static newResources(input: UpdateIncidentInput): string[] {
    if (input.resourceUrns == null) return [];
    if (input.resourceUrns.length === 0) throw badRequest('resourceUrns cannot be empty if provided');
    return [...new Set(input.resourceUrns.map((u) => parseUrn(u).raw))];
  }

  /** raiseIncident: the new incident's urn. Its resources must exist (Almanac's check; DataHub takes any urn). */
  async raise(input: RaiseIncidentInput, actor: string): Promise<string> {
    const resources = Incidents.resourcesOf(input);
    if (input.type === 'CUSTOM' && input.customType == null) throw badRequest('customType is required: Failed to create incident.');
    const found = await this.ports.aspects.existing(resources);
    const missing = resources.find((u) => !found.has(u));
    if (missing !== undefined) throw badRequest(`Failed to raise incident: resource ${missing} does not exist.`);
    const urn = parseUrn(`urn:li:incident:${crypto.randomUUID()}`).raw;
    const stamp = auditStampOf(actor, this.edits.now());
    const info: Json = {
      type: input.type,
      ...(input.customType != null ? { customType: input.customType } : {}),
      ...(input.title != null ? { title: input.title } : {}),
      ...(input.description != null ? { description: input.description } : {}),
      entities: resources,
      created: stamp,
      ...(input.startedAt != null ? { startedAt: input.startedAt } : {}),
      source: { type: 'MANUAL' },
      ...(input.priority != null ? { priority: PRIORITY[input.priority] } : {}),
      ...(input.assigneeUrns != null ? { assignees: assigneesOf(input.assigneeUrns, stamp) } : {}),
      status: statusOf(input.status, stamp),
    };
    await this.catalog.ingest(
      [{ entityType: INCIDENT, urn, changeType: 'UPSERT', aspectName: INFO, value: info, systemMetadata: { properties: { appSource: 'ui' } } }],
      actor,
    );
    return urn;
  }

  /**
   * updateIncident (UpdateIncidentResolver.updateIncidentInfo): the title, description, status and resources when
   * given; priority and assignees replaced whatever is given (absent removes them, as in DataHub). DataHub's resolver
   * ignores startedAt, and so does this. New resources must exist (Almanac's check, as for raiseIncident).
   */
  async update(incidentUrn: string, input: UpdateIncidentInput, actor: string): Promise<void> {
    const urn = parseUrn(incidentUrn).raw;
    const resources = Incidents.newResources(input);
    if (resources.length > 0) {
      const found = await this.ports.aspects.existing(resources);
      const missing = resources.find((u) => !found.has(u));
      if (missing !== undefined) throw badRequest(`Failed to update incident: resource ${missing} does not exist.`);
    }
    await this.edits.editExisting(
      { urn, entityType: INCIDENT, aspect: INFO },
      actor,
      () => notFound(MISSING),
      (current, now) => {
        const stamp = auditStampOf(actor, now);
        const { priority: _priority, assignees: _assignees, ...rest } = current;
        return {
          ...rest,
          ...(input.title != null ? { title: input.title } : {}),
          ...(input.description != null ? { description: input.description } : {}),
          ...(input.status != null ? { status: statusOf(input.status, stamp) } : {}),
          ...(resources.length > 0 ? { entities: resources } : {}),
          ...(input.priority != null ? { priority: PRIORITY[input.priority] } : {}),
          ...(input.assigneeUrns != null ? { assignees: assigneesOf(input.assigneeUrns, stamp) } : {}),
        };
      },
    );
  }

  /** updateIncidentStatus: the new state, stage and message, stamped by the caller. */
  async updateStatus(incidentUrn: string, status: IncidentStatusInput, actor: string): Promise<void> {
    const urn = parseUrn(incidentUrn).raw;
    await this.edits.editExisting(
      { urn, entityType: INCIDENT, aspect: INFO },
      actor,
      () => notFound(MISSING),
      (current, now) => ({
        ...current,
        status: statusOf(status, auditStampOf(actor, now)),
      }),
    );
  }
}
