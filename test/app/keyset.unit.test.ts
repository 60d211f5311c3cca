/**
 * Cursors (src/keyset.ts) without a database: a listing's cursor reads back, and every text no listing
 * could have written is refused (shape, length, instants PostgreSQL would refuse, ids). `npm run mutate`
 * runs these against the cursor part of the module.
 */
import { describe, expect, it } from 'vitest';
import { cursorOf, cursorParam, decodeCursor, encodeCursor, INVALID_CURSOR, MAX_PAGE_SIZE, pageOf } from '../../src/keyset.ts';

const AT = '2024-05-06T07:08:09.123456Z';
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('cursors', () => {
  it('read back what a listing wrote', () => {
    const cursor = cursorOf({ position: AT, id: 'resp_1' });
    expect(cursor).toBe(encodeCursor({ createdAt: AT, id: 'resp_1' }));
    expect(decodeCursor(cursor)).toEqual({ createdAt: AT, id: 'resp_1' });
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({ createdAt: AT, id: 'resp_1' });
    expect(cursorParam.safeParse(cursor).success).toBe(true);
  });

  it('refuse text that is not base64url of JSON, or longer than 512 characters', () => {
    expect(decodeCursor('')).toBeUndefined();
    expect(decodeCursor('abc+/=')).toBeUndefined();
    expect(decodeCursor(Buffer.from('not json').toString('base64url'))).toBeUndefined();
    const longId = { createdAt: AT, id: 'x'.repeat(128) };
    expect(decodeCursor(encode(longId))).toEqual(longId);
    // Padding JSON whitespace makes a valid position's cursor as long as wanted.
    const padded = (length: number) => {
      const json = JSON.stringify({ createdAt: AT, id: 'id' });
      let text = Buffer.from(json).toString('base64url');
      let spaces = 0;
      while (text.length < length) text = Buffer.from(`${' '.repeat(++spaces)}${json}`).toString('base64url');
      return text;
    };
    const at512 = padded(512);
    expect(at512.length).toBeLessThanOrEqual(512);
    expect(decodeCursor(at512)).toEqual({ createdAt: AT, id: 'id' });
    const over = padded(513);
    expect(over.length).toBeGreaterThan(512);
    expect(decodeCursor(over)).toBeUndefined();
    const parsed = cursorParam.safeParse('!');
    expect(parsed.success ? undefined : parsed.error.issues[0]!.message).toBe(INVALID_CURSOR);
  });

  it('refuse another shape: extra or missing keys, wrong types', () => {
    expect(decodeCursor(encode({ createdAt: AT, id: 'a', extra: 1 }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT }))).toBeUndefined();
    expect(decodeCursor(encode({ id: 'a' }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT, id: 5 }))).toBeUndefined();
    expect(decodeCursor(encode([AT, 'a']))).toBeUndefined();
    expect(decodeCursor(encode(null))).toBeUndefined();
  });

  it('refuse ids that are empty, too long, or hold what PostgreSQL refuses', () => {
    expect(decodeCursor(encode({ createdAt: AT, id: '' }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT, id: 'x'.repeat(129) }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT, id: 'a\u0000b' }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT, id: 'a\ud800' }))).toBeUndefined();
    expect(decodeCursor(encode({ createdAt: AT, id: 'x' }))).toEqual({ createdAt: AT, id: 'x' });
  });

  it.each([
    ['0001-01-01T00:00:00.000000Z', true],
    ['9999-12-31T23:59:59.999999Z', true],
    ['2024-02-29T00:00:00.000000Z', true],
    ['2000-02-29T00:00:00.000000Z', true],
    ['2024-01-31T00:00:00.000000Z', true],
    ['2024-12-01T00:00:00.000000Z', true],
    ['0000-01-01T00:00:00.000000Z', false],
    ['2023-02-29T00:00:00.000000Z', false],
    ['1900-02-29T00:00:00.000000Z', false],
    ['2024-02-30T00:00:00.000000Z', false],
    ['2024-04-31T00:00:00.000000Z', false],
    ['2024-00-10T00:00:00.000000Z', false],
    ['2024-13-10T00:00:00.000000Z', false],
    ['2024-01-00T00:00:00.000000Z', false],
    ['2024-01-01T24:00:00.000000Z', false],
    ['2024-01-01T23:60:00.000000Z', false],
    ['2024-01-01T23:59:60.000000Z', false],
    ['2024-01-01T00:00:00.000Z', false],
    ['2024-01-01T00:00:00.000000+01:00', false],
    [' 2024-01-01T00:00:00.000000Z', false],
    ['2024-01-01T00:00:00.000000Z ', false],
  ])('an instant %s is %s', (createdAt, valid) => {
    expect(decodeCursor(encode({ createdAt, id: 'a' })) !== undefined).toBe(valid);
  });
});

describe('pages', () => {
  it('say whether another page follows from the extra row, and keep `limit` rows', () => {
    expect(pageOf([1, 2, 3], 2)).toEqual({ rows: [1, 2], hasNextPage: true });
    expect(pageOf([1, 2], 2)).toEqual({ rows: [1, 2], hasNextPage: false });
    expect(pageOf([], 2)).toEqual({ rows: [], hasNextPage: false });
    expect(MAX_PAGE_SIZE).toBe(100);
  });
});
