import { badRequest } from '../errors.ts';
import type { ParsedSearchQuery as SearchQuery } from '../../storage/ports/search-index.ts';
import { searchWords } from './search-tokens.ts';

export type { SearchQuery };

interface Token {
  readonly type: '(' | ')' | 'or' | 'and' | 'not' | 'phrase' | 'word';
  readonly text: string;
  readonly at: number;
}

const fail = (at: number, why: string): never => {
  throw badRequest(`Field 'query' could not be parsed at position ${at + 1}: ${why}`);
};

function lex(text: string, fieldQueries: boolean, offset: number): Token[] {
  const tokens: Token[] = [];
  const failAt = (at: number, why: string): never => fail(at + offset, why);
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c, text: c, at: offset + i++ });
    } else if (c === '|') {
      tokens.push({ type: 'or', text: c, at: offset + i++ });
    } else if (c === '+') {
      i++; // simple_query_string's explicit AND: the default anyway
    } else if (c === '-' && (tokens.length === 0 || /[\s(]/.test(text[i - 1] ?? ' '))) {
      tokens.push({ type: 'not', text: c, at: offset + i++ });
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) failAt(i, 'the quotation mark is never closed');
      tokens.push({ type: 'phrase', text: text.slice(i + 1, end), at: offset + i });
      i = end + 1;
    } else if (text.startsWith('urn:li:', i)) {
      // A urn is one word, its parentheses included (a dataset urn holds a tuple).
      const start = i;
      let depth = 0;
      while (i < text.length && !(depth === 0 && /[\s)|"]/.test(text[i]!))) {
        if (text[i] === '(') depth++;
        else if (text[i] === ')') depth--;
        i++;
      }
      tokens.push({ type: 'word', text: text.slice(start, i), at: offset + start });
    } else {
      const start = i;
      while (i < text.length && !/[\s()|"]/.test(text[i]!)) i++;
      let word = text.slice(start, i);
      // `/q field: value` — a field name, then its value after optional spaces (or a phrase).
      if (fieldQueries && word.endsWith(':') && /^[\w.]+:$/.test(word)) {
        while (i < text.length && /\s/.test(text[i]!)) i++;
        if (text[i] === '"') {
          const end = text.indexOf('"', i + 1);
          if (end < 0) failAt(i, 'the quotation mark is never closed');
          tokens.push({ type: 'phrase', text: `${word}${text.slice(i + 1, end)}`, at: offset + start });
          i = end + 1;
          continue;
        }
        const valueStart = i;
        while (i < text.length && !/[\s()|"]/.test(text[i]!)) i++;
        if (i === valueStart) failAt(start, `the field ${word.slice(0, -1)} has no value`);
        word += text.slice(valueStart, i);
      }
      const upper = word.toUpperCase();
      tokens.push({ type: upper === 'OR' ? 'or' : upper === 'AND' ? 'and' : upper === 'NOT' ? 'not' : 'word', text: word, at: offset + start });
    }
  }
  return tokens;
}

/** Parses a query as DataHub's clients write it; a query that cannot be read is a 400 naming the position, never a match-all. */
export function parseSearchQuery(raw: string | undefined): SearchQuery {
  const trimmed = (raw ?? '').trim();
  const fieldQueries = trimmed.startsWith('/q ') || trimmed === '/q';
  const text = fieldQueries ? trimmed.slice(2) : trimmed;
  const offset = fieldQueries ? (raw ?? '').indexOf('/q') + 2 : (raw ?? '').indexOf(trimmed);
  if (text.trim() === '' || text.trim() === '*') return { kind: 'all' };
  const tokens = lex(text, fieldQueries, offset);
  let pos = 0;
  const peek = () => tokens[pos];

  const orExpr = (): SearchQuery => {
    const children = [andExpr()];
    while (peek()?.type === 'or') {
      const op = tokens[pos++]!;
      if (peek() === undefined || peek()!.type === ')' || peek()!.type === 'or') fail(op.at, `'${op.text}' needs a term after it`);
      children.push(andExpr());
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  };
  const andExpr = (): SearchQuery => {
    const children: SearchQuery[] = [];
    for (let t = peek(); t && t.type !== ')' && t.type !== 'or'; t = peek()) {
      if (t.type === 'and') {
        pos++;
        if (children.length === 0 || peek() === undefined || peek()!.type === ')' || peek()!.type === 'or')
          fail(t.at, "'AND' needs a term on both sides");
        continue;
      }
      children.push(unary());
    }
    if (children.length === 0) fail(peek()?.at ?? text.length + offset, 'a term was expected');
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  };
  const unary = (): SearchQuery => {
    const t = tokens[pos++]!;
    if (t.type === 'not') {
      if (peek() === undefined || peek()!.type === ')' || peek()!.type === 'or') fail(t.at, `'${t.text}' needs a term after it`);
      return { kind: 'not', child: unary() };
    }
    if (t.type === '(') {
      if (peek()?.type === ')') fail(t.at, 'the parentheses are empty');
      const inner = orExpr();
      if (peek()?.type !== ')') fail(t.at, 'the parenthesis is never closed');
      pos++;
      return inner;
    }
    if (t.type === ')') fail(t.at, 'this parenthesis closes nothing');
    return t.type === 'phrase' ? leaf(t, true, fieldQueries) : leaf(t, false, fieldQueries);
  };

  const query = orExpr();
  if (pos < tokens.length) fail(tokens[pos]!.at, 'this parenthesis closes nothing');
  return query;
}

function leaf(t: Token, phrase: boolean, fieldQueries: boolean): SearchQuery {
  let field: string | undefined;
  let value = t.text;
  const colon = fieldQueries ? /^([\w.]+):/.exec(value) : null;
  if (colon) {
    field = colon[1]!;
    value = value.slice(colon[0].length);
    if (field === '_exists_') {
      if (!/^[\w.]+$/.test(value)) fail(t.at, `_exists_ needs a field name, got ${JSON.stringify(value)}`);
      return { kind: 'exists', field: value };
    }
  }
  if (!phrase && fieldQueries && field !== undefined && /\*.|^\*/.test(value)) return { kind: 'wildcard', field, pattern: value.toLowerCase() };
  const prefix = !phrase && value.endsWith('*');
  const words = searchWords(prefix ? value.slice(0, -1) : value);
  if (words.length === 0) {
    if (value === '*' && field !== undefined) return { kind: 'exists', field };
    fail(t.at, `${JSON.stringify(t.text)} has no letters or digits to search for`);
  }
  return { kind: 'words', words, prefix, quoted: phrase, text: prefix ? value.slice(0, -1) : value, ...(field !== undefined ? { field } : {}) };
}
