/**
 * Secrets kept at rest encrypted (environments' captcha secret keys): AES-256-GCM under the instance's
 * key, a random 96-bit nonce per value, and where the value belongs (e.g. `environment:<id>:turnstile`)
 * as associated data, so a ciphertext copied into another environment's row does not open there.
 * Stored as `v1.<nonce>.<ciphertext and tag>`, base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 256-bit key');
  }

  seal(plaintext: string, belongsTo: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(belongsTo, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${nonce.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The plaintext, or undefined when `sealed` was not sealed by this key for `belongsTo` (or is damaged). */
  open(sealed: string, belongsTo: string): string | undefined {
    const [version, nonceText, bodyText, ...rest] = sealed.split('.');
    if (version !== VERSION || nonceText === undefined || bodyText === undefined || rest.length > 0) return undefined;
    const nonce = Buffer.from(nonceText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
      decipher.setAAD(Buffer.from(belongsTo, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
