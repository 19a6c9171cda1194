import fs from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { Logger } from 'pino';
import { parseRetentionPolicy, toPolicyRecord } from '../../catalog/retention/retention-policy.ts';
import type { Parts } from '../../storage/store.ts';
import { RETENTION_ACTOR } from '../../catalog/retention/retention-record.ts';

/** Raised at start-up: the server does not start on a retention file it cannot read whole. */
export class RetentionFileError extends Error {}

/**
 * Reads ALMANAC_RETENTION_FILE: a YAML or JSON list of policies in DataHub's boot `retention.yaml` form
 * (`entity`, `aspect`, `config.retention`, optional `forceOverwrite`). Every entry is checked before any is stored.
 */
export async function readRetentionFile(file: string) {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new RetentionFileError(`ALMANAC_RETENTION_FILE: cannot read ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text); // JSON is YAML
  } catch (e) {
    throw new RetentionFileError(`ALMANAC_RETENTION_FILE: ${file} is neither YAML nor JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc))
    throw new RetentionFileError(`ALMANAC_RETENTION_FILE: ${file} must hold a list of policies (entity, aspect, config.retention)`);
  return doc.map((entry: unknown, i) => {
    const { forceOverwrite, ...policy } = (entry ?? {}) as { forceOverwrite?: unknown };
    if (forceOverwrite !== undefined && typeof forceOverwrite !== 'boolean') {
      throw new RetentionFileError(`ALMANAC_RETENTION_FILE: entry ${i + 1}: Field 'forceOverwrite': must be true or false`);
    }
    try {
      return { policy: parseRetentionPolicy(policy), forceOverwrite: forceOverwrite === true };
    } catch (e) {
      throw new RetentionFileError(`ALMANAC_RETENTION_FILE: entry ${i + 1}: ${(e as Error).message}`);
    }
  });
}

/**
 * Seeds the policies of the file, as DataHub's boot step does: a policy the file set before (or none) is written; one
 * set since over the API is left alone unless its entry says `forceOverwrite: true`. Returns the keys written.
 */
export async function seedRetentionPolicies({ retention }: Pick<Parts, 'retention'>, file: string, logger: Logger, now: number): Promise<number> {
  const entries = await readRetentionFile(file);
  const existing = new Map((await retention.listRetentionPolicies()).map((p) => [`${p.entityType}\u0000${p.aspect}`, p]));
  let written = 0;
  for (const { policy, forceOverwrite } of entries) {
    const current = existing.get(`${policy.entity}\u0000${policy.aspect}`);
    if (current && current.source === 'api' && !forceOverwrite) {
      logger.info(
        { entity: policy.entity, aspect: policy.aspect },
        'retention file: kept the policy set over the API (forceOverwrite: true replaces it)',
      );
      continue;
    }
    await retention.putRetentionPolicy(toPolicyRecord(policy, 'file', RETENTION_ACTOR, now));
    written++;
  }
  logger.info({ file, policies: entries.length, written }, 'retention policies seeded from file');
  return written;
}
