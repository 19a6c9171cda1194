/**
 * How search splits text into words, for what is indexed and for what is asked alike: DataHub's analyzers split
 * names on `_`, `.`, `-` and other punctuation, on camelCase and on letter/digit boundaries, and fold case and
 * accents, so `orders` finds `sales_orders_2024` and `SalesOrders`. Both engines index the words this produces
 * (joined by spaces), so neither engine's own tokenizer decides what a word is.
 *
 * Every value a write indexes passes through here (a dataset's name, description and each column path), so ASCII
 * text, which needs no normalization, takes a scan of its characters; any other text takes the Unicode rules below.
 * The two agree on ASCII (test/unit/search-query.test.ts compares them).
 */

const DIACRITICS = /\p{M}+/gu;
/** Runs of letters or digits; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Boundaries inside a run: lower→Upper (salesOrders), UPPER→Upper+lower (HTMLParser), letter↔digit (orders2024). */
const INNER = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\x00-\x7f]/;

/** Case and accents folded: `Café` and `cafe` are one word. */
export const foldText = (text: string): string =>
  NOT_ASCII.test(text) ? text.normalize('NFKD').replace(DIACRITICS, '').toLowerCase() : text.toLowerCase();

/** The Unicode rules: each run of letters and digits with its parts, folded. */
function unicodeRuns(text: string, each: (parts: readonly string[], run: string) => void): void {
  for (const run of text.normalize('NFKD').replace(DIACRITICS, '').match(WORD) ?? []) {
    each(
      run
        .split(INNER)
        .filter((p) => p !== '')
        .map((p) => p.toLowerCase()),
      run.toLowerCase(),
    );
  }
}

const upper = (c: number): boolean => c >= 65 && c <= 90;
const lower = (c: number): boolean => c >= 97 && c <= 122;
const digit = (c: number): boolean => c >= 48 && c <= 57;
const letter = (c: number): boolean => upper(c) || lower(c);

/** The same rules over ASCII text, character by character: what a run's boundaries are (INNER) without a regular expression. */
function asciiRuns(text: string, each: (parts: readonly string[], run: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && !letter(text.charCodeAt(i)) && !digit(text.charCodeAt(i))) i++;
    if (i === n) return;
    const start = i;
    let from = i;
    const parts: string[] = [];
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!letter(c) && !digit(c)) break;
      const p = text.charCodeAt(i - 1);
      if (
        (lower(p) && upper(c)) ||
        (upper(p) && upper(c) && i + 1 < n && lower(text.charCodeAt(i + 1))) ||
        (letter(p) && digit(c)) ||
        (digit(p) && letter(c))
      ) {
        parts.push(text.slice(from, i).toLowerCase());
        from = i;
      }
    }
    parts.push(text.slice(from, i).toLowerCase());
    each(parts, parts.length === 1 ? parts[0]! : text.slice(start, i).toLowerCase());
  }
}

type Runs = (text: string, each: (parts: readonly string[], run: string) => void) => void;

/** Each run of letters and digits of a text, in order: its parts (the words) and the run whole, folded. */
const wordRuns: Runs = (text, each) => (NOT_ASCII.test(text) ? unicodeRuns(text, each) : asciiRuns(text, each));

/** The words of a text, in order, folded. */
export function searchWords(text: string): string[] {
  const out: string[] = [];
  wordRuns(text, (parts) => out.push(...parts));
  return out;
}

/** indexedText by the given rules. */
function indexedBy(runs: Runs, text: string): string {
  const words: string[] = [];
  runs(text, (parts, run) => {
    words.push(...parts);
    if (parts.length > 1) words.push(run);
  });
  return words.join(' ');
}

/**
 * What an engine's full-text column holds for a text: its words, and each compound run whole too when it splits
 * (`salesorders` for `SalesOrders`), so a query for the run as one word finds it as well as one for its parts.
 */
export const indexedText = (text: string): string => indexedBy(wordRuns, text);

/** indexedText by the Unicode rules alone, whatever the text: for comparing the ASCII scan with them (tests). */
export const unicodeIndexedText = (text: string): string => indexedBy(unicodeRuns, text);
