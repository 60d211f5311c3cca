/**
 * Embed session tokens (src/embed/session-token.ts) without a page: what a token carries, and every way a
 * token is refused (another form, another key, an altered part, a malformed part, expiry, the length cap).
 * `npm run mutate` runs these against the module.
 */
import { describe, expect, it, vi } from 'vitest';
import { deriveSecret } from '../../src/auth/secrets.ts';
import { EMBED_TOKEN_TTL_SECONDS, embedSessionToken, readEmbedSessionToken } from '../../src/embed/session-token.ts';

// Counts the MACs computed: a token over the length cap is refused before any.
vi.mock('../../src/auth/secrets.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/auth/secrets.ts')>();
  return { ...actual, deriveSecret: vi.fn(actual.deriveSecret) };
});

const KEY = 'embed-test-key';
const FORM = 'form_1';
const SESSION = { sessionId: 'sess_abc', leadId: 'lead_xyz' };
const NOW = 1_700_000_000_000;

describe('embed session tokens', () => {
  const token = embedSessionToken(KEY, FORM, SESSION, NOW);

  it('carry the session and lead, and expire EMBED_TOKEN_TTL_SECONDS after issue', () => {
    const [sessionId, leadId, expires] = token.split('.');
    expect({ sessionId, leadId }).toEqual(SESSION);
    expect(Number(expires)).toBe(Math.floor(NOW / 1000) + EMBED_TOKEN_TTL_SECONDS);
    expect(EMBED_TOKEN_TTL_SECONDS).toBe(86_400);
    expect(readEmbedSessionToken(KEY, FORM, token, NOW)).toEqual(SESSION);
  });

  it('are good until their expiry second, not at it', () => {
    const expiresMs = (Math.floor(NOW / 1000) + EMBED_TOKEN_TTL_SECONDS) * 1000;
    expect(readEmbedSessionToken(KEY, FORM, token, expiresMs - 1)).toEqual(SESSION);
    expect(readEmbedSessionToken(KEY, FORM, token, expiresMs)).toBeUndefined();
  });

  it('are refused for another form or under another key', () => {
    expect(readEmbedSessionToken(KEY, 'form_2', token, NOW)).toBeUndefined();
    expect(readEmbedSessionToken('other-key', FORM, token, NOW)).toBeUndefined();
  });

  it('are refused when any part is altered', () => {
    const parts = token.split('.');
    for (let i = 0; i < parts.length; i++) {
      const altered = parts.map((part, j) => (j === i ? `${part.slice(0, -1)}${part.endsWith('A') ? 'B' : 'A'}` : part)).join('.');
      expect(readEmbedSessionToken(KEY, FORM, altered, NOW)).toBeUndefined();
    }
  });

  it('are refused with too few or too many parts', () => {
    expect(readEmbedSessionToken(KEY, FORM, token.split('.').slice(0, 3).join('.'), NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, `${token}.extra`, NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, '', NOW)).toBeUndefined();
  });

  it('are refused when an id or the expiry is malformed, even correctly signed', () => {
    const signed = (sessionId: string, leadId: string) => embedSessionToken(KEY, FORM, { sessionId, leadId }, NOW);
    expect(readEmbedSessionToken(KEY, FORM, signed('has space', 'lead'), NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, signed('sess', 'lead/x'), NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, signed('', 'lead'), NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, signed('sess', ''), NOW)).toBeUndefined();
    // 64 characters is the longest id (and the token then stays within its cap).
    expect(readEmbedSessionToken(KEY, FORM, signed('s'.repeat(64), 'l'.repeat(64)), NOW)).toEqual({
      sessionId: 's'.repeat(64),
      leadId: 'l'.repeat(64),
    });
    expect(readEmbedSessionToken(KEY, FORM, signed('s'.repeat(65), 'lead'), NOW)).toBeUndefined();
    const [sessionId, leadId, , mac] = token.split('.');
    expect(readEmbedSessionToken(KEY, FORM, `${sessionId}.${leadId}.12x.${mac}`, NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, `${sessionId}.${leadId}.1234567890123.${mac}`, NOW)).toBeUndefined();
    expect(readEmbedSessionToken(KEY, FORM, `${sessionId}.${leadId}.+1.${mac}`, NOW)).toBeUndefined();
  });

  // The in-process tier shares modules between files (isolate: false), so whether the mock reaches the module
  // depends on which file loaded it first; only the mutation run (npm run mutate, one module in its own fork) is sure of it.
  it.runIf(process.env.MUTATE_MODULE !== undefined && vi.isMockFunction(deriveSecret))(
    'are refused past 300 characters before any MAC is computed; 300 characters are still read',
    () => {
      const [sessionId, leadId, expires] = token.split('.');
      const withMac = (length: number) => {
        const head = `${sessionId}.${leadId}.${expires}.`;
        return head + 'm'.repeat(length - head.length);
      };
      const macs = vi.mocked(deriveSecret);
      macs.mockClear();
      expect(readEmbedSessionToken(KEY, FORM, withMac(301), NOW)).toBeUndefined();
      expect(macs).not.toHaveBeenCalled();
      expect(readEmbedSessionToken(KEY, FORM, withMac(300), NOW)).toBeUndefined();
      expect(macs).toHaveBeenCalledTimes(1);
    },
  );
});
