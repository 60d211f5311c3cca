/**
 * The JSON safety checks (src/limits/json-safety.ts) without a server: strings PostgreSQL would refuse,
 * nesting measured on the text (brackets inside strings and escapes not counted) and on parsed values,
 * with the path of the first offence. `npm run mutate` runs these against the module.
 */
import { describe, expect, it } from 'vitest';
import { findUnsafeJson, parseJsonSafely, unsafeStringProblem } from '../../src/limits/json-safety.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('unsafeStringProblem', () => {
  it('refuses NUL and unpaired surrogates, takes the rest', () => {
    expect(unsafeStringProblem('a\u0000b')).toBe('must not contain NUL (\\u0000) characters');
    expect(unsafeStringProblem('a\ud800')).toBe('must be well-formed Unicode (no unpaired surrogates)');
    expect(unsafeStringProblem('\udc00a')).toBe('must be well-formed Unicode (no unpaired surrogates)');
    expect(unsafeStringProblem('🔑 é')).toBeUndefined();
    expect(unsafeStringProblem('')).toBeUndefined();
  });
});

describe('parseJsonSafely', () => {
  it('takes nesting up to maxDepth and refuses one level more, before parsing', () => {
    expect(parseJsonSafely(nested(3), 3)).toEqual({ ok: true, value: [[[]]] });
    expect(parseJsonSafely(nested(4), 3)).toEqual({
      ok: false,
      error: { message: 'Body nests arrays/objects deeper than 3 levels', path: [] },
    });
    // Refused on the text: an unclosed deep prefix is not even valid JSON.
    expect(parseJsonSafely('['.repeat(5), 3)).toEqual({
      ok: false,
      error: { message: 'Body nests arrays/objects deeper than 3 levels', path: [] },
    });
    expect(parseJsonSafely('{"a":{"b":{"c":{}}}}', 3)).toMatchObject({ ok: false });
    expect(parseJsonSafely('{"a":{"b":{}}}', 3)).toEqual({ ok: true, value: { a: { b: {} } } });
  });

  it('counts closing brackets: siblings do not add up', () => {
    expect(parseJsonSafely('[[[]],[[]],[[]],{"a":[]}]', 3)).toMatchObject({ ok: true });
    expect(parseJsonSafely('[{}, {}, {}, {}, {}]', 2)).toMatchObject({ ok: true });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(parseJsonSafely('["[[[[[[", "{{{{{{"]', 1)).toEqual({ ok: true, value: ['[[[[[[', '{{{{{{'] });
    expect(parseJsonSafely('["\\"[[[[[[", "\\\\"]', 1)).toEqual({ ok: true, value: ['"[[[[[[', '\\'] });
    // After an escaped backslash the string ends: the brackets after it count again.
    expect(parseJsonSafely('["\\\\", [[]]]', 2)).toMatchObject({
      ok: false,
      error: { message: 'Body nests arrays/objects deeper than 2 levels' },
    });
  });

  it('refuses malformed JSON, and unsafe strings with their path', () => {
    expect(parseJsonSafely('{"a":', 5)).toEqual({ ok: false, error: { message: 'Body must be valid JSON', path: [] } });
    expect(parseJsonSafely('{"a":["ok","x\\u0000"]}', 5)).toEqual({
      ok: false,
      error: { message: 'must not contain NUL (\\u0000) characters', path: ['a', 1] },
    });
    expect(parseJsonSafely('"plain"', 5)).toEqual({ ok: true, value: 'plain' });
  });
});

describe('findUnsafeJson', () => {
  it('finds the first unsafe value in document order, with its path from the root', () => {
    expect(findUnsafeJson({ a: 'ok', b: ['x', 'y\u0000'], c: 'z\u0000' }, 10)).toEqual({
      message: 'must not contain NUL (\\u0000) characters',
      path: ['b', 1],
    });
    expect(findUnsafeJson(['\ud800', '\u0000'], 10)).toEqual({
      message: 'must be well-formed Unicode (no unpaired surrogates)',
      path: [0],
    });
    expect(findUnsafeJson({ a: 1, b: true, c: null, d: 'fine' }, 10)).toBeUndefined();
    expect(findUnsafeJson('x\u0000', 10, ['variables', 'input'])).toEqual({
      message: 'must not contain NUL (\\u0000) characters',
      path: ['variables', 'input'],
    });
  });

  it('checks object keys, reporting the object that holds them', () => {
    expect(findUnsafeJson({ outer: { 'k\u0000': 1 } }, 10)).toEqual({
      message: 'key must not contain NUL (\\u0000) characters',
      path: ['outer'],
    });
  });

  it('takes nesting up to maxDepth and refuses one level more, at the deepest container', () => {
    expect(findUnsafeJson([[['leaf']]], 3)).toBeUndefined();
    expect(findUnsafeJson([[[[]]]], 3)).toEqual({
      message: 'nests arrays/objects deeper than 3 levels',
      path: [0, 0, 0],
    });
    expect(findUnsafeJson({ a: { b: { c: {} } } }, 3)).toEqual({
      message: 'nests arrays/objects deeper than 3 levels',
      path: ['a', 'b', 'c'],
    });
    expect(findUnsafeJson({}, 0)).toEqual({ message: 'nests arrays/objects deeper than 0 levels', path: [] });
  });
});
