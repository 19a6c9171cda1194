import crypto from 'node:crypto';
import type { Config } from '../config.ts';
import type { Parts } from '../storage/store.ts';

export interface TokenSecrets {
  readonly signingKey: string;
  readonly salt: string;
}

/**
 * The token signing key and salt: from the environment when set, otherwise
 * generated once and kept in the database so tokens survive restarts and every
 * process sharing the database agrees. There is no built-in default.
 */
export async function loadTokenSecrets(config: Config, { database }: Pick<Parts, 'database'>): Promise<TokenSecrets> {
  const generate = () => crypto.randomBytes(32).toString('base64url');
  return {
    signingKey: config.tokenSigningKey ?? (await database.getOrInitSetting('token_service.signing_key', generate)),
    salt: config.tokenSalt ?? (await database.getOrInitSetting('token_service.salt', generate)),
  };
}

/** Equal-time comparison of two secrets of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}
