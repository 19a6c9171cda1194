/**
 * How search splits text into words, for what is indexed and for what is asked alike: DataHub's analyzers split
 * names on `_`, `.`, `-` and other punctuation, on camelCase and on letter/digit boundaries, and fold case and
 * accents, so `orders` finds `sales_orders_2024` and `SalesOrders`. Both engines index the words this produces
 * (joined by spaces), so neither engine's own tokenizer decides what a word is.
 */

const DIACRITICS = /\p{M}+/gu;
/** Runs of letters or digits; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Boundaries inside a run: lower→Upper (salesOrders), UPPER→Upper+lower (HTMLParser), letter↔digit (orders2024). */
const INNER = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/** Case and accents folded: `Café` and `cafe` are one word. */
export const foldText = (text: string): string => text.normalize('NFKD').replace(DIACRITICS, '').toLowerCase();

/** The words of a text, in order, folded. */
export function searchWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.normalize('NFKD').replace(DIACRITICS, '').match(WORD) ?? []) {
    for (const part of run.split(INNER)) if (part !== '') out.push(part.toLowerCase());
  }
  return out;
}

/**
 * What an engine's full-text column holds for a text: its words, and each compound run whole too when it splits
 * (`salesorders` for `SalesOrders`), so a query for the run as one word finds it as well as one for its parts.
 */
export function indexedText(text: string): string {
  const words: string[] = [];
  for (const run of text.normalize('NFKD').replace(DIACRITICS, '').match(WORD) ?? []) {
    const parts = run.split(INNER).filter((p) => p !== '');
    for (const part of parts) words.push(part.toLowerCase());
    if (parts.length > 1) words.push(run.toLowerCase());
  }
  return words.join(' ');
}
