/**
 * What every component module's content schema is built from: the shared limits and field types,
 * the stored component shape, and the rules contract (`ContentRules`) a module gives for each type.
 */
import { z } from 'zod';

// A missing field reads "Required" rather than "expected string, received undefined".
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

export type Content = Record<string, unknown>;

// Limits the v1 contract leaves open (documented in docs/components.md).
export const LIMITS = {
  maxSteps: 100,
  maxComponentsPerStep: 100,
  maxNameLength: 200,
  maxTextLength: 10_000,
  maxOptions: 500,
} as const;

export const text = z.string().max(LIMITS.maxTextLength);
export const shortText = z.string().max(LIMITS.maxNameLength);
/**
 * Host names as DNS writes them (IDNs arrive punycoded) or bracketed IPv6. WHATWG URLs also allow
 * `;`, `,`, `'` or `*` in a host, which would break out of the public page's CSP `frame-src`.
 */
const PLAIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/i;
export const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && PLAIN_HOST.test(url.hostname);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');
export const isHttpUrl = (value: string): boolean => httpUrl.safeParse(value).success;

/** A rule over the raw content that a field-by-field schema can't express. */
export interface Problem {
  message: string;
  /** Relative to `content`. */
  path: PropertyKey[];
}

/** How one input type's content is checked and stored. */
export interface ContentRules {
  /** Field types of the content. Loose unless said otherwise: unknown keys are kept as sent. */
  schema: z.ZodType<Content>;
  /** Cross-field rules, run on the raw content even when the schema found problems, so all are reported. */
  rules?: (raw: Content, type: string) => Problem[];
  /** Turns the parsed content into the stored shape (aliases resolved). */
  normalise?: (content: Content, type: string) => Content;
  /** The type stored when this is an older name for another type. */
  storedType?: string;
}

/** Content rules of a type whose content is a loose object of these fields. */
export const loose = (shape: z.ZodRawShape = {}): ContentRules => ({ schema: z.looseObject(shape) });

export function isObject(value: unknown): value is Content {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function withDefined(base: Content, extra: Content): Content {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) out[key] = value;
  return out;
}

/** A content string, or undefined (not a string). */
export const contentString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The strings of a content list. */
export const contentStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
