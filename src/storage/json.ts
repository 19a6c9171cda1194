import type { Json } from './store.ts';

/** Both adapters keep aspect and event values as JSON text; parsing lives here once. */
export const toJsonText = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value));

export const fromJsonText = (text: string | null | undefined): Json | null =>
  text === null || text === undefined ? null : (JSON.parse(text) as Json);

export const fromJsonTextRequired = (text: string): Json => JSON.parse(text) as Json;
