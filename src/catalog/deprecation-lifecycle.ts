import type { DeprecationView } from './deprecation.ts';

/**
 * Where an entity is in its decommission lifecycle (Almanac's, beside DataHub's unchanged Deprecation): ACTIVE when
 * not deprecated, OVERDUE when deprecated and its decommission time has passed (strictly before now), DEPRECATED
 * otherwise (a deprecation without a decommission time is never overdue).
 */
export const DEPRECATION_STATES = ['ACTIVE', 'DEPRECATED', 'OVERDUE'] as const;
export type DeprecationState = (typeof DEPRECATION_STATES)[number];

const DAY_MILLIS = 86_400_000;

export function deprecationState(d: Pick<DeprecationView, 'deprecated' | 'decommissionTime'>, now: number): DeprecationState {
  if (!d.deprecated) return 'ACTIVE';
  return d.decommissionTime !== null && d.decommissionTime < now ? 'OVERDUE' : 'DEPRECATED';
}

/**
 * Days from now to the decommission time, rounded up as the console counts them: 1 for anything up to a day ahead,
 * 0 for the day after it passed, -n once n whole days have passed; null without one.
 */
export function daysToDecommission(d: Pick<DeprecationView, 'decommissionTime'>, now: number): number | null {
  return d.decommissionTime === null ? null : Math.ceil((d.decommissionTime - now) / DAY_MILLIS) || 0;
}
