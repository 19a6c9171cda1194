import { GraphQLError, Kind, type ValueNode } from 'graphql';

/**
 * DataHub's `Long` (graphql-java's 64-bit GraphQLLong): numbers or numeric
 * strings in, numbers out. JSON numbers are doubles, so a value beyond
 * ±(2^53-1) is refused rather than silently rounded.
 */
const INTEGER = /^-?\d+$/;

function toLong(value: unknown): number {
  const n = typeof value === 'string' && INTEGER.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new GraphQLError(`Long cannot represent a non-integer value: ${JSON.stringify(value) ?? String(value)}`);
  }
  if (!Number.isSafeInteger(n)) {
    throw new GraphQLError(`Long cannot represent ${JSON.stringify(value)} exactly: use an integer from -(2^53-1) to 2^53-1`);
  }
  return n;
}

export const longScalar = {
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(node: ValueNode): number {
    if (node.kind !== Kind.INT && node.kind !== Kind.STRING) {
      throw new GraphQLError(`Long cannot represent a non-integer literal of kind ${node.kind}`, { nodes: node });
    }
    try {
      return toLong(node.value);
    } catch (e) {
      // Located, so the caller sees where in the document the bad literal is.
      throw new GraphQLError((e as Error).message, { nodes: node });
    }
  },
};
