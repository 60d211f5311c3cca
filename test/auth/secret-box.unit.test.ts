/**
 * The box that seals environments' captcha secret keys (src/auth/secret-box.ts): what opens, and every
 * damaged, misplaced or foreign sealed value that must not. `npm run mutate` runs these against the module.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/auth/secret-box.ts';

const KEY = Buffer.alloc(32, 7);
const HERE = 'environment:env_1:turnstile';

/**
 * A value in the v1 layout sealed under KEY with AES-256-GCM, but with a nonce or a tag of another length
 * than the box writes: what a foreign or careless writer (or someone with write access to the table) could
 * store. Node opens such values unless told the lengths, so only the box's own checks refuse them.
 */
function sealedWith(plaintext: string, options: { nonceBytes: number; tagBytes: number }): string {
  const nonce = randomBytes(options.nonceBytes);
  const cipher = createCipheriv('aes-256-gcm', KEY, nonce, { authTagLength: options.tagBytes });
  cipher.setAAD(Buffer.from(HERE, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}`;
}

describe('SecretBox', () => {
  // Made in each test, not when the file loads: a constructor that throws fails the tests instead of
  // leaving a file with no tests (which mutation testing counts as passing).
  let box: SecretBox;
  beforeEach(() => {
    box = new SecretBox(KEY);
  });

  it('needs a 256-bit key, and takes one', () => {
    expect(() => new SecretBox(Buffer.alloc(31))).toThrow('SecretBox needs a 256-bit key');
    expect(() => new SecretBox(Buffer.alloc(33))).toThrow('SecretBox needs a 256-bit key');
    expect(new SecretBox(randomBytes(32)).open(new SecretBox(KEY).seal('x', HERE), HERE)).toBeUndefined();
    expect(new SecretBox(Buffer.from(KEY)).open(box.seal('x', HERE), HERE)).toBe('x');
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
    expect(box.open(`${version}.${Buffer.concat([nonceBytes, Buffer.alloc(1)]).toString('base64url')}.${body}`, HERE)).toBeUndefined();
    const tagOnly = Buffer.from(body, 'base64url').subarray(-16);
    // Exactly a tag (an empty plaintext's body) is read; one byte less is refused before decryption.
    const empty = box.seal('', HERE).split('.');
    expect(Buffer.from(empty[2]!, 'base64url')).toHaveLength(16);
    expect(box.open(empty.join('.'), HERE)).toBe('');
    expect(box.open(`${version}.${nonce}.${tagOnly.subarray(1).toString('base64url')}`, HERE)).toBeUndefined();
  });

  it('refuses a value under its own key whose nonce is not 96 bits (GCM would take any length)', () => {
    for (const nonceBytes of [8, 16]) {
      const foreign = sealedWith('secret', { nonceBytes, tagBytes: 16 });
      expect(box.open(foreign, HERE), `${nonceBytes}-byte nonce`).toBeUndefined();
    }
    // The helper's values are otherwise what the box writes: with a 96-bit nonce and a full tag, they open.
    expect(box.open(sealedWith('secret', { nonceBytes: 12, tagBytes: 16 }), HERE)).toBe('secret');
  });

  it('refuses a value under its own key with a truncated tag (a 4-byte tag is forged in about 2^32 tries)', () => {
    // A body shorter than a full tag, laid out so that taking its "last 16 bytes" as the tag finds exactly
    // the short tag: 8 bytes of ciphertext and a 4-byte tag, or no ciphertext and an 8-byte tag (Node
    // accepts 4- and 8-byte GCM tags when the length is not fixed).
    for (const [plaintext, tagBytes] of [
      ['12345678', 4],
      ['', 8],
    ] as const) {
      const truncated = sealedWith(plaintext, { nonceBytes: 12, tagBytes });
      expect(box.open(truncated, HERE), `${tagBytes}-byte tag`).toBeUndefined();
    }
  });
});
