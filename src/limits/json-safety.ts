import type { FieldError } from '../errors.ts';
/**
 * Hostile-input checks shared by every entry point (REST bodies, the public API, GraphQL variables and
 * literals, query parameters, path segments): PostgreSQL refuses `\u0000` and unpaired UTF-16
 * surrogates in `text`/`jsonb`, and recursive walks over client JSON (zod, GraphQL literal coercion)
 * overflow the stack at a few thousand levels. So nesting is measured on the raw text before
 * JSON.parse, and strings are checked by one iterative pass: neither recurses.
 */

export type Path = (string | number)[];

/** What is wrong with a string that PostgreSQL would refuse; undefined when it is fine. */
export function unsafeStringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (!value.isWellFormed()) return 'must be well-formed Unicode (no unpaired surrogates)';
  return undefined;
}

/**
 * The depth of the deepest array/object in JSON text, scanning no further than `maxDepth + 1` levels.
 * Brackets inside strings do not count.
 */
function jsonTextDepth(text: string, maxDepth: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > maxDepth) return deepest;
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--;
  }
  return deepest;
}

/**
 * The first unsafe string (value or object key) in parsed JSON, or a nesting deeper than `maxDepth`,
 * with its path from the root. Iterative, so any depth is safe to walk.
 */
export function findUnsafeJson(root: unknown, maxDepth: number, rootPath: Path = []): FieldError | undefined {
  const stack: { value: unknown; path: Path; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unsafeStringProblem(value);
      if (problem) return { message: problem, path };
    } else if (typeof value === 'object' && value !== null) {
      if (depth + 1 > maxDepth) return { message: `nests arrays/objects deeper than ${maxDepth} levels`, path };
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i], depth: depth + 1 });
      } else {
        const entries: [string, unknown][] = Object.entries(value);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, child] = entries[i]!;
          const keyProblem = unsafeStringProblem(key);
          if (keyProblem) return { message: `key ${keyProblem}`, path };
          stack.push({ value: child, path: [...path, key], depth: depth + 1 });
        }
      }
    }
  }
  return undefined;
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: FieldError };

/** Parses a JSON body: depth checked on the text first, then every string checked. */
export function parseJsonSafely(text: string, maxDepth: number): ParsedJson {
  if (jsonTextDepth(text, maxDepth) > maxDepth) {
    return { ok: false, error: { message: `Body nests arrays/objects deeper than ${maxDepth} levels`, path: [] } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: { message: 'Body must be valid JSON', path: [] } };
  }
  const unsafe = findUnsafeJson(value, maxDepth);
  return unsafe ? { ok: false, error: unsafe } : { ok: true, value };
}
