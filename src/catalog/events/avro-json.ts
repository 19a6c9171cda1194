/**
 * Avro's JSON encoding of a value by its Avro schema, as DataHub's events API writes each event (Avro's JsonEncoder,
 * ExternalEventsService.convertGenericRecordToJson): a record's fields in schema order with absent ones at their
 * default, a non-null union branch wrapped in an object named for its type (`{"string": "urn:..."}`), bytes as a string
 * of one character per byte. The schemas are DataHub's (generated/event-schemas.json, `npm run events:generate`).
 * A schema is compiled once into one function per node that writes the encoding's JSON text directly (no value is
 * built only to be stringified), so encoding walks no names: every entry a poll serves is encoded when it is read.
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

/** Writes a value's encoding as JSON text. */
type Encode = (value: unknown) => string;

/** A value the schema does not take; `path` is filled in as the error leaves each record and array. */
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
/** A compiled node: how to encode a value of it, whether a value fits it (for unions), and its name in a union. */
interface Node {
  encode: Encode;
  fits: (value: unknown) => boolean;
  name: string;
}

/** A text's UTF-8 bytes, one character each, as Avro's JsonEncoder writes bytes (ASCII is its own encoding). */
const oneCharPerByte = (text: string): string =>
  Buffer.byteLength(text, 'utf8') === text.length ? text : Buffer.from(text, 'utf8').toString('latin1');

const show = (v: unknown): string => String(JSON.stringify(v)).slice(0, 80);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const PRIMITIVES: Record<string, (v: unknown) => boolean> = {
  null: (v) => v === null || v === undefined,
  boolean: (v) => typeof v === 'boolean',
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  long: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number',
  double: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
  bytes: (v) => typeof v === 'string',
};

/** An encoder for one top-level schema, compiled when it is built. */
export class AvroJsonEncoder {
  private readonly named = new Map<string, Node>();
  private readonly root: Node;

  constructor(schema: Schema) {
    this.root = this.compile(schema, undefined);
  }

  /** The value's encoding as the JSON text DataHub serves. */
  encode(value: unknown): string {
    try {
      return this.root.encode(value);
    } catch (e) {
      throw e instanceof AvroValueError && e.path.length === 0 ? new Error(`$: ${e.problem}`) : e;
    }
  }

  private compile(s: Schema, namespace: string | undefined): Node {
    if (Array.isArray(s)) return this.union(s, namespace);
    if (typeof s === 'string') return this.reference(s, namespace);
    const type = s.type;
    if (type === 'record' || type === 'enum') return this.namedType(s, namespace);
    if (type === 'array') {
      const items = this.compile(s.items!, namespace);
      return {
        name: 'array',
        fits: Array.isArray,
        encode: (v) =>
          `[${(v as unknown[])
            .map((item, i) => {
              try {
                return items.encode(item);
              } catch (e) {
                throw AvroValueError.within(e, `[${i}]`);
              }
            })
            .join(',')}]`,
      };
    }
    if (type === 'map') {
      const values = this.compile(s.values!, namespace);
      return {
        name: 'map',
        fits: isObject,
        encode: (v) =>
          `{${Object.entries(v as object)
            .map(([k, item]) => {
              try {
                return `${JSON.stringify(k)}:${values.encode(item)}`;
              } catch (e) {
                throw AvroValueError.within(e, `.${k}`);
              }
            })
            .join(',')}}`,
      };
    }
    return this.compile(type, namespace);
  }

  /** A primitive, or a named type defined earlier in the schema (resolved when first encoded: a record may name itself). */
  private reference(name: string, namespace: string | undefined): Node {
    const fits = PRIMITIVES[name];
    if (fits) {
      const encode: Encode =
        name === 'bytes'
          ? (v) => JSON.stringify(oneCharPerByte(String(v)))
          : (v) => {
              if (!fits(v)) throw new AvroValueError(`expected ${name}, got ${show(v)}`);
              return name === 'null' ? 'null' : JSON.stringify(v);
            };
      return { name, fits, encode };
    }
    const full = name.includes('.') ? name : `${namespace}.${name}`;
    const found = () => {
      const node = this.named.get(full) ?? this.named.get(name);
      if (!node) throw new Error(`Avro schema names an unknown type ${name}`);
      return node;
    };
    return { name: full, fits: (v) => found().fits(v), encode: (v) => found().encode(v) };
  }

  private namedType(s: SchemaObject, namespace: string | undefined): Node {
    const ns = s.namespace ?? namespace;
    const full = s.name!.includes('.') ? s.name! : `${ns}.${s.name}`;
    let node: Node;
    if (s.type === 'enum') {
      const symbols = new Set(s.symbols);
      const fits = (v: unknown) => typeof v === 'string' && symbols.has(v);
      node = {
        name: full,
        fits,
        encode: (v) => {
          if (!fits(v)) throw new AvroValueError(`expected one of ${[...symbols].join(', ')}, got ${show(v)}`);
          return JSON.stringify(v);
        },
      };
    } else {
      // Each field's key is written once, with the separator before it: `{"a":`, then `,"b":`.
      const fields: Array<{ name: string; key: string; node: Node; fallback: unknown }> = [];
      node = {
        name: full,
        fits: isObject,
        encode: (v) => {
          const obj = (v ?? {}) as Record<string, unknown>;
          let out = '';
          for (const f of fields) {
            try {
              out += f.key + f.node.encode(obj[f.name] ?? f.fallback);
            } catch (e) {
              throw AvroValueError.within(e, `.${f.name}`);
            }
          }
          return fields.length === 0 ? '{}' : `${out}}`;
        },
      };
      // Registered before its fields compile, so a field may name the record it is in.
      this.named.set(full, node);
      for (const f of s.fields!) {
        const key = `${fields.length === 0 ? '{' : ','}${JSON.stringify(f.name)}:`;
        fields.push({ name: f.name, key, node: this.compile(f.type, ns), fallback: f.default });
      }
    }
    this.named.set(full, node);
    return node;
  }

  private union(branches: readonly Schema[], namespace: string | undefined): Node {
    const nodes = branches.map((b) => this.compile(b, namespace));
    const nullable = nodes.some((n) => n.name === 'null');
    const others = nodes.filter((n) => n.name !== 'null');
    // Each branch with the text that opens its wrapper: `{"string":`.
    const wrapped = others.map((n) => ({ node: n, open: `{${JSON.stringify(n.name)}:` }));
    return {
      name: 'union',
      fits: (v) => (v === null || v === undefined ? nullable : others.some((n) => n.fits(v))),
      encode: (v) => {
        if (v === null || v === undefined) {
          if (nullable) return 'null';
          throw new AvroValueError('a value is required');
        }
        const branch = wrapped.find((b) => b.node.fits(v));
        if (!branch) throw new AvroValueError(`no branch of its union takes ${show(v)}`);
        return `${branch.open}${branch.node.encode(v)}}`;
      },
    };
  }
}
