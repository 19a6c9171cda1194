import { badRequest } from '../catalog/errors.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** DataHub's AccessTokenDuration values; null means the token never expires. */
export const TOKEN_DURATIONS = {
  ONE_HOUR: HOUR,
  ONE_DAY: DAY,
  ONE_WEEK: 7 * DAY,
  ONE_MONTH: 30 * DAY,
  THREE_MONTHS: 90 * DAY,
  SIX_MONTHS: 180 * DAY,
  ONE_YEAR: 365 * DAY,
  NO_EXPIRY: null,
} as const satisfies Record<string, number | null>;

export type TokenDuration = keyof typeof TOKEN_DURATIONS;

export function parseTokenDuration(value: string): TokenDuration {
  if (Object.hasOwn(TOKEN_DURATIONS, value)) return value as TokenDuration;
  throw badRequest(`Unrecognized access token duration ${value} provided. Use one of ${Object.keys(TOKEN_DURATIONS).join(', ')}`);
}
