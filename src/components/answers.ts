/**
 * What every component module's answer rules are built from: the stored response type, the answer
 * limits, the problem list answers are checked into, and value checks several types share.
 *
 * Answers arrive in the public JSON API's shape (the page turns its form fields into the same shape
 * first), so both paths share every rule. `null`, `""` or `[]` is "no answer": an error when the
 * component is required, otherwise the component's earlier answer (if any) is removed.
 */
import { z } from 'zod';
import { isHttpUrl } from './content.ts';
import type { FieldError } from '../errors.ts';
import type { ResponseAnswer } from '../db/json-columns.ts';

export type StoredResponse = ResponseAnswer['response'];

/** Longest accepted answers (documented in docs/components.md). */
export const ANSWER_LIMITS = {
  shortInput: 1_000,
  longInput: 10_000,
  identityField: 300,
  email: 254,
  url: 2_048,
  otherText: 500,
  password: 256,
  passwordCreatorMin: 8,
  emailList: 50,
  /** The largest magnitude of a Number answer (and of its `min` and `max`). */
  numberMagnitude: 1e15,
} as const;

export type Path = (string | number)[];

/** The problems found in one answer, each with a path relative to the answer. */
export class Problems {
  readonly list: FieldError[] = [];
  add(path: Path, message: string) {
    this.list.push({ message, path });
  }
  get any() {
    return this.list.length > 0;
  }
}

/** A type's stored fields (beside `type`, `componentShapeVersion`, `headline`), or `null` for "no answer". */
export type Fields = Record<string, unknown> | null;

export const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

export const REQUIRED = 'This question requires an answer';

export const clip = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value);

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[A-Z]{2,}$/i;
export function isEmail(value: string): boolean {
  return value.length <= ANSWER_LIMITS.email && EMAIL.test(value) && !value.includes('..');
}

/** Free-mail domains blocked where `blockPersonalEmails` is set. */
const PERSONAL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'msn.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'mail.com',
  'web.de',
  'yopmail.com',
  'mail.ru',
  'qq.com',
  '163.com',
  'fastmail.com',
  'tutanota.com',
]);
/** Providers with a domain per country (`yahoo.co.uk`, `gmx.de`, `hotmail.fr`, …). */
const PERSONAL_FAMILIES = ['yahoo', 'ymail', 'hotmail', 'outlook', 'live', 'gmx', 'yandex'];
export function isPersonalEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (PERSONAL_DOMAINS.has(domain)) return true;
  const dot = domain.indexOf('.');
  return PERSONAL_FAMILIES.includes(domain.slice(0, dot)) && /^[a-z]{2,}(?:\.[a-z]{2,})?$/.test(domain.slice(dot + 1));
}

/** A website may be written without its scheme ("acme.com"). */
export function isWebsite(value: string): boolean {
  if (/\s/.test(value)) return false;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  if (!isHttpUrl(candidate)) return false;
  const host = new URL(candidate).hostname;
  return host.includes('.') || host === 'localhost';
}

const PHONE = /^\+?[0-9 ()./-]{4,32}$/;
export function isPhoneNumber(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE.test(value) && digits >= 4 && digits <= 20;
}

/** The shape of one or several picked values (`selection`), for the OpenAPI document. */
export const pickedShape = (description: string) => z.union([z.string(), z.array(z.string())]).meta({ description });

/** One or several picked values: a string or an array of strings, de-duplicated. */
export function selection(raw: unknown, problems: Problems, path: Path = []): string[] | undefined {
  if (typeof raw === 'string') return raw === '' ? [] : [raw];
  if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) return [...new Set(raw.filter((v) => v !== ''))];
  problems.add(path, 'Must be a string or an array of strings');
  return undefined;
}

/**
 * One string answer (ShortInput, LongInput, EmailForm): `undefined` after a problem or for no answer
 * (a problem when required).
 */
export function stringAnswer(raw: unknown, required: boolean, problems: Problems): string | undefined {
  if (isEmpty(raw)) {
    if (required) problems.add([], REQUIRED);
    return undefined;
  }
  if (typeof raw !== 'string') {
    problems.add([], 'Must be a string');
    return undefined;
  }
  return raw;
}

/** A stored upload a submission answers with (made only from the uploads table, never from client JSON). */
export class UploadedFile {
  constructor(
    readonly id: string,
    readonly name: string,
    readonly contentType: string,
    readonly size: number,
  ) {}
}

// ---------------------------------------------------------------- answers in a spreadsheet (the export's cells)

/** Separator of multi-valued answers within one cell. */
export const MULTI_VALUE_SEPARATOR = '; ';

/** A value of a stored answer as the text of a spreadsheet cell: lists joined, booleans `true`/`false`, nothing empty. */
export const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value
      .map(cellText)
      .filter((v) => v !== '')
      .join(MULTI_VALUE_SEPARATOR);
  return JSON.stringify(value);
};

/**
 * A summary's counts of `[first, second]` pairs (selected as JSON arrays, e.g. a Matrix's row and column or a
 * Ranking's option and position), grouped by the first; keys that are not such a pair are skipped.
 */
export function countsByPair<T>(counts: ReadonlyMap<string, number>, isSecond: (value: unknown) => value is T): Map<string, Map<T, number>> {
  const byFirst = new Map<string, Map<T, number>>();
  for (const [key, count] of counts) {
    let pair: unknown;
    try {
      pair = JSON.parse(key);
    } catch {
      continue;
    }
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !isSecond(pair[1])) continue;
    let seconds = byFirst.get(pair[0]);
    if (!seconds) byFirst.set(pair[0], (seconds = new Map<T, number>()));
    seconds.set(pair[1], (seconds.get(pair[1]) ?? 0) + count);
  }
  return byFirst;
}
