/**
 * Avro's JSON encoding of a value by its Avro schema, as DataHub's events API writes each event (Avro's JsonEncoder,
 * ExternalEventsService.convertGenericRecordToJson): a record's fields in schema order with absent ones at their
 * default, a non-null union branch wrapped in an object named for its type (`{"string": "urn:..."}`), bytes as a string
 * of one character per byte. The schemas are DataHub's (generated/event-schemas.json, `npm run events:generate`).
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

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/** An encoder for one top-level schema: its named types are resolved once, when it is built. */
export class AvroJsonEncoder {
  private readonly named = new Map<string, SchemaObject>();

  constructor(private readonly root: Schema) {
    this.collect(root, undefined);
  }

  /** The value's encoding as a JSON value (JSON.stringify gives the text DataHub serves). */
  encode(value: unknown): unknown {
    return this.write(this.root, value, '$');
  }

  private collect(s: Schema, namespace: string | undefined): void {
    if (Array.isArray(s)) for (const branch of s) this.collect(branch, namespace);
    else if (typeof s === 'object') {
      const ns = s.namespace ?? namespace;
      if (s.name !== undefined && (s.type === 'record' || s.type === 'enum' || s.type === 'fixed'))
        this.named.set(s.name.includes('.') ? s.name : `${ns}.${s.name}`, s);
      for (const f of s.fields ?? []) this.collect(f.type, ns);
      if (s.items !== undefined) this.collect(s.items, ns);
      if (s.values !== undefined) this.collect(s.values, ns);
    }
  }

  private resolve(s: Schema): Schema {
    if (typeof s !== 'string' || PRIMITIVES.has(s)) return s;
    const found = this.named.get(s) ?? [...this.named.entries()].find(([full]) => full.endsWith(`.${s}`))?.[1];
    if (!found) throw new Error(`Avro schema names an unknown type ${s}`);
    return found;
  }

  /** A union branch's name, as the encoding wraps a value of it. */
  private branchName(s: Schema): string {
    const r = this.resolve(s);
    if (typeof r === 'string') return r;
    if (Array.isArray(r)) throw new Error('Avro union directly inside a union');
    if (r.name !== undefined) return [...this.named.entries()].find(([, v]) => v === r)![0];
    return String(r.type);
  }

  private fits(s: Schema, v: unknown): boolean {
    const r = this.resolve(s);
    const t = typeof r === 'string' ? r : Array.isArray(r) ? 'union' : String(r.type);
    switch (t) {
      case 'null':
        return v === null || v === undefined;
      case 'boolean':
        return typeof v === 'boolean';
      case 'int':
      case 'long':
        return typeof v === 'number' && Number.isInteger(v);
      case 'float':
      case 'double':
        return typeof v === 'number';
      case 'string':
      case 'bytes':
        return typeof v === 'string';
      case 'enum':
        return typeof v === 'string' && (r as SchemaObject).symbols!.includes(v);
      case 'array':
        return Array.isArray(v);
      case 'record':
      case 'map':
        return typeof v === 'object' && v !== null && !Array.isArray(v);
      default:
        return false;
    }
  }

  private write(s: Schema, v: unknown, at: string): unknown {
    const r = this.resolve(s);
    if (Array.isArray(r)) {
      if (v === null || v === undefined) {
        if (r.includes('null')) return null;
        throw new Error(`${at}: a value is required`);
      }
      const branch = r.find((b) => b !== 'null' && this.fits(b, v));
      if (branch === undefined) throw new Error(`${at}: no branch of its union takes ${JSON.stringify(v)?.slice(0, 80)}`);
      return { [this.branchName(branch)]: this.write(branch, v, at) };
    }
    const type = typeof r === 'string' ? r : r.type;
    switch (type) {
      case 'bytes':
        // One character per byte: Avro's JsonEncoder writes bytes as ISO-8859-1 text.
        return Buffer.from(String(v), 'utf8').toString('latin1');
      case 'record': {
        const obj = (v ?? {}) as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const f of (r as SchemaObject).fields!) {
          const fv = obj[f.name] ?? (f.default !== undefined ? f.default : undefined);
          out[f.name] = this.write(f.type, fv, `${at}.${f.name}`);
        }
        return out;
      }
      case 'array':
        return (v as unknown[]).map((item, i) => this.write((r as SchemaObject).items!, item, `${at}[${i}]`));
      case 'map':
        return Object.fromEntries(Object.entries(v as object).map(([k, item]) => [k, this.write((r as SchemaObject).values!, item, `${at}.${k}`)]));
      default:
        if (!this.fits(r, v)) throw new Error(`${at}: expected ${String(type)}, got ${JSON.stringify(v)?.slice(0, 80)}`);
        return v;
    }
  }
}
