import { badRequest } from '../catalog/errors.ts';

/**
 * How many aspect versions one request may still write, summed over its calls:
 * a batch of proposals, an array of entities, or GraphQL mutations repeated under
 * aliases (each alias is its own transaction, so the cap is what bounds the request).
 * Each call takes its share before anything of it is written.
 */
export class WriteBudget {
  private used = 0;

  constructor(private readonly max: number) {}

  /** Takes `n` writes for `field` (the parameter they come from), or refuses them all with 400. */
  take(n: number, field: string): void {
    if (this.used + n > this.max) {
      throw badRequest(
        `Parameter '${field}': this request would write ${this.used + n} aspect versions, more than the ${this.max} ` +
          'one request may write (ALMANAC_MAX_WRITES_PER_REQUEST); send them in several requests',
      );
    }
    this.used += n;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's share of ALMANAC_MAX_WRITES_PER_REQUEST, set when it arrives. */
    writes: WriteBudget;
  }
}
