/**
 * File URLs: `/api/v1/files/<uploadId>` serves a file to the environment's API key (or the admin
 * token), or to anyone holding a signed URL: `?expires=<unix seconds>&signature=<HMAC-SHA256 of
 * "<uploadId>.<expires>", base64url>`, valid until `expires`.
 */
import { createHmac } from 'node:crypto';
import { secretsEqual } from '../auth/secrets.ts';

const FILE_URL_PREFIX = '/api/v1/files/';
export const fileUrl = (uploadId: string): string => `${FILE_URL_PREFIX}${uploadId}`;

const signatureOf = (secret: string, uploadId: string, expires: number) => createHmac('sha256', secret).update(`${uploadId}.${expires}`).digest('base64url');

/** The file's URL with a signature valid for `ttlSeconds` from `now`. */
export function signedFileUrl(secret: string, uploadId: string, ttlSeconds: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `${fileUrl(uploadId)}?expires=${expires}&signature=${signatureOf(secret, uploadId, expires)}`;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

export function checkFileSignature(secret: string, uploadId: string, expires: string, signature: string, now = Date.now()): SignatureCheck {
  if (!/^\d{1,12}$/.test(expires) || !secretsEqual(signature, signatureOf(secret, uploadId, Number(expires)))) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'valid';
}
