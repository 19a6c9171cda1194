import { badRequest } from '../errors.ts';
import type { Json } from '../../storage/store.ts';

/** DataHub's StructuredPropertySettingsInput: where a property is shown; absent flags stay as they are. */
export interface StructuredPropertySettingsInput {
  readonly isHidden?: boolean | null;
  readonly showInSearchFilters?: boolean | null;
  readonly showInAssetSummary?: boolean | null;
  readonly hideInAssetSummaryWhenEmpty?: boolean | null;
  readonly showAsAssetBadge?: boolean | null;
  readonly showInColumnsTable?: boolean | null;
}

/** The flags of DataHub's StructuredPropertySettings aspect, each false unless set. */
export const SETTINGS_FLAGS = [
  'isHidden',
  'showInSearchFilters',
  'showInAssetSummary',
  'hideInAssetSummaryWhenEmpty',
  'showAsAssetBadge',
  'showInColumnsTable',
] as const;

/** DataHub's StructuredPropertyUtils.INVALID_SETTINGS_MESSAGE. */
const INVALID_SETTINGS = 'Cannot have property isHidden = true while other display location settings are also true.';

/**
 * The structuredPropertySettings a create or update writes (DataHub's createPropertySettings and updateSettings):
 * the stored flags (false when none) with the given ones applied; `hideInAssetSummaryWhenEmpty` is false whenever
 * `showInAssetSummary` is set false; stamped when new or when a flag changes. A hidden property shown anywhere is
 * refused (validatePropertySettings).
 */
export function settingsWith(current: Json | undefined, input: StructuredPropertySettingsInput, stamp: Json): Json {
  const before = Object.fromEntries(SETTINGS_FLAGS.map((f) => [f, current?.[f] === true])) as Record<(typeof SETTINGS_FLAGS)[number], boolean>;
  const next = { ...before };
  for (const f of SETTINGS_FLAGS) if (input[f] != null) next[f] = input[f];
  if (input.showInAssetSummary === false) next.hideInAssetSummaryWhenEmpty = false;
  if (next.isHidden && (next.showInSearchFilters || next.showInAssetSummary || next.showAsAssetBadge || next.showInColumnsTable)) {
    throw badRequest(INVALID_SETTINGS);
  }
  const changed = SETTINGS_FLAGS.some((f) => input[f] != null && input[f] !== before[f]);
  const lastModified = current === undefined || changed ? stamp : current.lastModified;
  return { ...next, ...(lastModified !== undefined ? { lastModified } : {}) };
}
