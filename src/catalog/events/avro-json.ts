/**
 * Avro's JSON encoding of a value by its Avro schema, as DataHub's events API writes each event (Avro's JsonEncoder,
 * ExternalEventsService.convertGenericRecordToJson): a record's fields in schema order with absent ones at their
 * default, a non-null union branch wrapped in an object named for its type (`{"string": "urn:..."}`), bytes as a string
 * of one character per byte. The schemas are DataHub's (generated/event-schemas.json, `npm run events:generate`).
 * A schema is compiled once into JavaScript: one function per node that writes the encoding's JSON text directly (no
 * value is built only to be stringified), a record's as one concatenation of its keys and its fields' encodings, each
 * function calling the next by name. Every entry a poll serves is encoded when it is read: a call site V8 can inline
 * is several times quicker than one that reaches a different closure for each field.
 */
type Schema = string | Schema[] | SchemaObject;
interface SchemaObject {
  readonly type: Schema;
  readonly name?: string;
  readonly namespace?: string;
  readonly fields?: readonly { readonly name: string; readonly type: Schema; readonly default?: unknown }[];
  readonly items?: Schema;
  readonly values?: Schema;
  readonly symbols?: readonly string[];
}

/** A value the schema does not take; `path` is filled in as the error leaves each record, array and map. */
class AvroValueError extends Error {
  constructor(
    readonly problem: string,
    readonly path: string[] = [],
  ) {
    super(problem);
  }

  /** The error with one more step of path in front. */
  static within(e: unknown, step: string): unknown {
    if (!(e instanceof AvroValueError)) return e;
    const inner = new AvroValueError(e.problem, [step, ...e.path]);
    inner.message = `$${inner.path.join('')}: ${e.problem}`;
    return inner;
  }
}

/** A text's UTF-8 bytes, one character each, as Avro's JsonEncoder writes bytes (ASCII is its own encoding). */
const oneCharPerByte = (text: string): string =>
  Buffer.byteLength(text, 'utf8') === text.length ? text : Buffer.from(text, 'utf8').toString('latin1');

const show = (v: unknown): string => String(JSON.stringify(v)).slice(0, 80);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the generated code calls: nothing else is in its scope. */
const RUNTIME = {
  stringify: JSON.stringify,
  isObject,
  isInteger: Number.isInteger,
  isArray: Array.isArray,
  bytes: (v: unknown) => JSON.stringify(oneCharPerByte(String(v))),
  fail: (problem: string): never => {
    throw new AvroValueError(problem);
  },
  within: AvroValueError.within,
  show,
  array: (v: unknown[], item: (x: unknown) => string) => {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      try {
        out += (i === 0 ? '' : ',') + item(v[i]);
      } catch (e) {
        throw AvroValueError.within(e, `[${i}]`);
      }
    }
    return `${out}]`;
  },
  map: (v: object, item: (x: unknown) => string) => {
    let out = '{';
    for (const [k, x] of Object.entries(v)) {
      try {
        out += (out.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + item(x);
      } catch (e) {
        throw AvroValueError.within(e, `.${k}`);
      }
    }
    return `${out}}`;
  },
};

/** How each primitive is told apart (for unions) and written; `x` is the value. */
const PRIMITIVES: Record<string, { fits: string; encode: string }> = {
  null: { fits: 'x == null', encode: "'null'" },
  boolean: { fits: "typeof x === 'boolean'", encode: "(x ? 'true' : 'false')" },
  int: { fits: "typeof x === 'number' && isInteger(x)", encode: "('' + x)" },
  long: { fits: "typeof x === 'number' && isInteger(x)", encode: "('' + x)" },
  float: { fits: "typeof x === 'number'", encode: 'stringify(x)' },
  double: { fits: "typeof x === 'number'", encode: 'stringify(x)' },
  string: { fits: "typeof x === 'string'", encode: 'stringify(x)' },
  bytes: { fits: "typeof x === 'string'", encode: 'bytes(x)' },
};

/** JavaScript source for a string constant. */
const literal = (text: string): string => JSON.stringify(text);

/** An encoder for one top-level schema, compiled when it is built. */
export class AvroJsonEncoder {
  private readonly root: (value: unknown) => string;

  constructor(schema: Schema) {
    this.root = new SchemaCompiler().compile(schema);
  }

  /** The value's encoding as the JSON text DataHub serves. */
  encode(value: unknown): string {
    try {
      return this.root(value);
    } catch (e) {
      throw e instanceof AvroValueError && e.path.length === 0 ? new Error(`$: ${e.problem}`) : e;
    }
  }
}

/**
 * Writes the functions of one schema: `e<n>` encodes a value of node n, `f<n>` says whether a value fits it (for
 * unions). A named type is compiled once, where the schema defines it, and called by name where it is referred to.
 */
class SchemaCompiler {
  private readonly functions: string[] = [];
  private readonly constants: unknown[] = [];
  private readonly named = new Map<string, number>();
  private count = 0;

  compile(schema: Schema): (value: unknown) => string {
    const root = this.node(schema, undefined);
    const source = `"use strict";
const { stringify, isObject, isInteger, isArray, bytes, fail, within, show, array, map } = runtime;
${this.functions.join('\n')}
return e${root};`;
    // The source is made above from the schema alone (DataHub's, generated into the repository), every name quoted.
    return new Function('runtime', 'constants', source)(RUNTIME, this.constants) as (value: unknown) => string;
  }

  /** A constant the functions read (a field's default, an enum's symbols). */
  private constant(value: unknown): string {
    this.constants.push(value);
    return `constants[${this.constants.length - 1}]`;
  }

  /** Adds a node's two functions; returns its number. */
  private define(fits: string, encode: string): number {
    const n = this.count++;
    this.functions.push(`function f${n}(x) { return ${fits}; }`, `function e${n}(x) { ${encode} }`);
    return n;
  }

  private node(s: Schema, namespace: string | undefined): number {
    if (Array.isArray(s)) return this.union(s, namespace);
    if (typeof s === 'string') return this.reference(s, namespace);
    const type = s.type;
    if (type === 'record' || type === 'enum' || type === 'fixed') return this.namedType(s, namespace);
    if (type === 'array') {
      const items = this.node(s.items!, namespace);
      return this.define('isArray(x)', `return array(x, e${items});`);
    }
    if (type === 'map') {
      const values = this.node(s.values!, namespace);
      return this.define('isObject(x)', `return map(x, e${values});`);
    }
    return this.node(type, namespace);
  }

  /** A primitive, or a named type defined earlier in the schema (or being defined: a record may name itself). */
  private reference(name: string, namespace: string | undefined): number {
    const primitive = PRIMITIVES[name];
    if (primitive) {
      const check = name === 'bytes' ? '' : `if (!(${primitive.fits})) fail(${literal(`expected ${name}, got `)} + show(x)); `;
      return this.define(primitive.fits, `${check}return ${primitive.encode};`);
    }
    const full = name.includes('.') ? name : `${namespace}.${name}`;
    const n = this.named.get(full) ?? this.named.get(name);
    if (n === undefined) throw new Error(`Avro schema names an unknown type ${name}`);
    return n;
  }

  private namedType(s: SchemaObject, namespace: string | undefined): number {
    const ns = s.namespace ?? namespace;
    const full = s.name!.includes('.') ? s.name! : `${ns}.${s.name}`;
    if (s.type === 'fixed') {
      // Written as bytes are (Avro's JSON encoding does not tell them apart).
      const n = this.define(PRIMITIVES.bytes!.fits, `return ${PRIMITIVES.bytes!.encode};`);
      this.named.set(full, n);
      return n;
    }
    if (s.type === 'enum') {
      const symbols = this.constant(new Set(s.symbols));
      const fits = `typeof x === 'string' && ${symbols}.has(x)`;
      const n = this.define(
        fits,
        `if (!(${fits})) fail(${literal(`expected one of ${s.symbols!.join(', ')}, got `)} + show(x)); return stringify(x);`,
      );
      this.named.set(full, n);
      return n;
    }
    // Numbered before its fields compile, so a field may name the record it is in.
    const n = this.count++;
    this.named.set(full, n);
    const fields = s.fields!.map((f, i) => ({ ...f, node: this.node(f.type, ns), i }));
    const values = fields
      .map((f) => {
        const fallback = f.default === undefined ? '' : ` ?? ${this.constant(f.default)}`;
        return `i = ${f.i}; const v${f.i} = e${f.node}(o[${literal(f.name)}]${fallback});`;
      })
      .join(' ');
    // Each field's key is written once, with the separator before it: `{"a":`, then `,"b":`.
    const text = fields.map((f) => `${literal(`${f.i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`)} + v${f.i}`).join(' + ');
    const steps = this.constant(fields.map((f) => `.${f.name}`));
    this.functions.push(
      'function f' + n + '(x) { return isObject(x); }',
      fields.length === 0
        ? `function e${n}(x) { return '{}'; }`
        : `function e${n}(x) { const o = x ?? {}; let i = 0; try { ${values} return ${text} + '}'; } catch (e) { throw within(e, ${steps}[i]); } }`,
    );
    return n;
  }

  private union(branches: readonly Schema[], namespace: string | undefined): number {
    const nodes = branches.map((b) => this.node(b, namespace));
    const names = branches.map((b) => this.branchName(b, namespace));
    const nullable = names.includes('null');
    const others = nodes.map((n, i) => ({ n, name: names[i]! })).filter((b) => b.name !== 'null');
    // Each branch with the text that opens its wrapper: `{"string":`.
    const tries = others.map((b) => `if (f${b.n}(x)) return ${literal(`{${JSON.stringify(b.name)}:`)} + e${b.n}(x) + '}';`).join(' ');
    const fits = `x == null ? ${nullable} : ${others.map((b) => `f${b.n}(x)`).join(' || ') || 'false'}`;
    return this.define(
      fits,
      `if (x == null) { ${nullable ? "return 'null';" : "fail('a value is required');"} } ${tries} fail('no branch of its union takes ' + show(x));`,
    );
  }

  /** The name a union's branch is wrapped in: its type's full name, or the primitive's, `array` or `map`. */
  private branchName(s: Schema, namespace: string | undefined): string {
    if (typeof s === 'string') return PRIMITIVES[s] ? s : s.includes('.') ? s : this.fullName(s, namespace);
    if (Array.isArray(s)) return 'union';
    if (s.type === 'record' || s.type === 'enum' || s.type === 'fixed') {
      const ns = s.namespace ?? namespace;
      return s.name!.includes('.') ? s.name! : `${ns}.${s.name}`;
    }
    if (s.type === 'array' || s.type === 'map') return s.type;
    return this.branchName(s.type, namespace);
  }

  /** A named type's full name as it was defined (`Name` may be the full name itself or in `namespace`). */
  private fullName(name: string, namespace: string | undefined): string {
    const full = `${namespace}.${name}`;
    return this.named.has(full) ? full : name;
  }
}
