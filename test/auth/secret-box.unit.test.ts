/**
 * The box that seals environments' captcha secret keys (src/auth/secret-box.ts): what opens, and every
 * damaged, misplaced or foreign sealed value that must not. `npm run mutate` runs these against the module.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/auth/secret-box.ts';

const box = new SecretBox(Buffer.alloc(32, 7));
const HERE = 'environment:env_1:turnstile';

describe('SecretBox', () => {
  it('needs a 256-bit key', () => {
    expect(() => new SecretBox(Buffer.alloc(31))).toThrow('SecretBox needs a 256-bit key');
    expect(() => new SecretBox(Buffer.alloc(33))).toThrow('SecretBox needs a 256-bit key');
  });

  it('opens what it sealed for the same place, in the v1 format, with a fresh nonce each time', () => {
    const sealed = box.seal('0x4AAA-secret', HERE);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(box.open(sealed, HERE)).toBe('0x4AAA-secret');
    expect(box.seal('0x4AAA-secret', HERE)).not.toBe(sealed);
    expect(box.open(box.seal('', HERE), HERE)).toBe('');
    expect(box.open(box.seal('é ünïcödé 🔑', HERE), HERE)).toBe('é ünïcödé 🔑');
  });

  it('does not open a value sealed for another place, or under another key', () => {
    const sealed = box.seal('secret', HERE);
    expect(box.open(sealed, 'environment:env_2:turnstile')).toBeUndefined();
    expect(new SecretBox(randomBytes(32)).open(sealed, HERE)).toBeUndefined();
  });

  it('does not open a damaged value: version, nonce, body, tag, or extra parts', () => {
    const sealed = box.seal('secret', HERE);
    const [version, nonce, body] = sealed.split('.') as [string, string, string];
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[at]! ^= 1;
      return bytes.toString('base64url');
    };
    const bodyBytes = Buffer.from(body, 'base64url');
    expect(box.open(`v2.${nonce}.${body}`, HERE)).toBeUndefined();
    expect(box.open(`${version}.${flip(nonce, 0)}.${body}`, HERE)).toBeUndefined();
    expect(box.open(`${version}.${nonce}.${flip(body, 0)}`, HERE)).toBeUndefined();
    expect(box.open(`${version}.${nonce}.${flip(body, bodyBytes.length - 1)}`, HERE)).toBeUndefined();
    expect(box.open(`${sealed}.more`, HERE)).toBeUndefined();
    expect(box.open(`${version}.${nonce}`, HERE)).toBeUndefined();
    expect(box.open(version, HERE)).toBeUndefined();
    expect(box.open('', HERE)).toBeUndefined();
  });

  it('refuses a nonce of another length and a body shorter than the tag, without throwing', () => {
    const sealed = box.seal('secret', HERE);
    const [version, nonce, body] = sealed.split('.') as [string, string, string];
    const nonceBytes = Buffer.from(nonce, 'base64url');
    expect(box.open(`${version}.${nonceBytes.subarray(0, 11).toString('base64url')}.${body}`, HERE)).toBeUndefined();
    expect(
      box.open(`${version}.${Buffer.concat([nonceBytes, Buffer.alloc(1)]).toString('base64url')}.${body}`, HERE),
    ).toBeUndefined();
    const tagOnly = Buffer.from(body, 'base64url').subarray(-16);
    // Exactly a tag (an empty plaintext's body) is read; one byte less is refused before decryption.
    const empty = box.seal('', HERE).split('.');
    expect(Buffer.from(empty[2]!, 'base64url')).toHaveLength(16);
    expect(box.open(empty.join('.'), HERE)).toBe('');
    expect(box.open(`${version}.${nonce}.${tagOnly.subarray(1).toString('base64url')}`, HERE)).toBeUndefined();
  });
});
