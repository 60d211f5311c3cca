/** Secrets compared and derived: the primitives every signed token and key check uses (no state, no database). */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** A secret for one purpose, derived from another (HMAC-SHA256, base64url). */
export function deriveSecret(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose).digest('base64url');
}

/** Constant-time equality of two secrets of any length (compares their hashes). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
