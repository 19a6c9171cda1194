import crypto from 'node:crypto';

const VERSION = 'v1';

/**
 * Webhook signing secrets at rest: AES-256-GCM under a key derived from the token signing key, so a copy of the
 * database alone reveals none of them, and each is unsealed only to sign a delivery.
 */
export class WebhookSecrets {
  private readonly key: Buffer;

  /** `derivedKey`: 32 bytes or more of key material (TokenService.derive). */
  constructor(derivedKey: string) {
    this.key = crypto.createHash('sha256').update(derivedKey).digest();
  }

  seal(secret: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
  }

  unseal(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unreadable sealed webhook secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
