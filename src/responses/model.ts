/**
 * The stored response and its public object (the response object of docs/rest.md), shared by the pages that
 * write responses and the APIs that read them.
 */
import type { ResponseAnswer, ResponseMeta } from '../db/json-columns.ts';
import { jsonOfJsonbText } from '../db/jsonb-text.ts';

/** Lifecycle codes of `status` (documented in docs/public-pages.md, "Response status"). */
export const RESPONSE_STATUS = { inProgress: 2, droppedOff: 3, completed: 4, invalid: 5 } as const;
export const COMPONENT_SHAPE_VERSION = '2.0';

export interface ResponseRecord {
  id: string;
  formId: string;
  leadId: string;
  finished: boolean;
  data: ResponseAnswer[];
  meta: ResponseMeta;
  ip: string;
  country: string;
  visitedForm: number;
  completedForm: number;
  version: string;
  createdAt: Date;
  updatedAt: Date;
  dataUpdatedAt: Date;
}

/** The response object of the API. */
export interface ResponseObject {
  id: string;
  createdAt: string;
  updatedAt: string;
  dataUpdatedAt: string;
  finished: boolean;
  status: number;
  formId: string;
  version: string;
  data: ResponseAnswer[];
  meta: ResponseMeta & { leadId: string };
  personAttributes: { ip: string; country: string; visitedForm: number; completedForm: number };
}

/** A timestamp as a Date, or as the `toISOString` text the text listings read from PostgreSQL. */
type Instant = Date | string;
const isoOf = (instant: Instant) => (typeof instant === 'string' ? instant : instant.toISOString());

/**
 * `"invalid": true` in metadata as jsonb writes it (or JSON.stringify): the flag can only be the top-level
 * key, as no other value in a response's metadata is a boolean (hidden field values are strings).
 */
const INVALID_FLAG = /"invalid":\s?true\b/;

/** Whether a response ended invalid: its metadata, parsed or as jsonb text. */
export function isInvalidResponse(meta: ResponseMeta | string | undefined): boolean {
  return typeof meta === 'string' ? INVALID_FLAG.test(meta) : meta?.invalid === true;
}

/** 4 completed; 5 invalid; 3 dropped off (unfinished and untouched for `dropOffMs`); 2 in progress. */
export function responseStatus(record: { finished: boolean; updatedAt: Instant; meta?: ResponseMeta | string | undefined }, now: Date, dropOffMs: number): number {
  if (record.finished) return RESPONSE_STATUS.completed;
  if (isInvalidResponse(record.meta)) return RESPONSE_STATUS.invalid;
  const updatedAt = typeof record.updatedAt === 'string' ? Date.parse(record.updatedAt) : record.updatedAt.getTime();
  return now.getTime() - updatedAt >= dropOffMs ? RESPONSE_STATUS.droppedOff : RESPONSE_STATUS.inProgress;
}

export function toResponseObject(
  record: Omit<ResponseRecord, 'createdAt' | 'updatedAt' | 'dataUpdatedAt'> & { createdAt: Instant; updatedAt: Instant; dataUpdatedAt: Instant },
  now: Date,
  dropOffMs: number,
): ResponseObject {
  return {
    id: record.id,
    createdAt: isoOf(record.createdAt),
    updatedAt: isoOf(record.updatedAt),
    dataUpdatedAt: isoOf(record.dataUpdatedAt),
    finished: record.finished,
    status: responseStatus(record, now, dropOffMs),
    formId: record.formId,
    version: record.version,
    data: record.data,
    meta: { ...record.meta, leadId: record.leadId },
    personAttributes: { ip: record.ip, country: record.country, visitedForm: record.visitedForm, completedForm: record.completedForm },
  };
}

/**
 * The response object's `meta` (`{...meta, leadId}`) as JSON, from the metadata's jsonb text, without
 * parsing it: leadId last, or in its place when the metadata has one (then, and for metadata that is not
 * an object, the object is built as toResponseObject builds it).
 */
export function metaJsonOfText(metaJsonb: string, leadId: string): string {
  const meta = jsonOfJsonbText(metaJsonb);
  const lead = JSON.stringify(leadId);
  if (meta === '{}') return `{"leadId":${lead}}`;
  if (meta.charCodeAt(0) === 123 && !meta.includes('"leadId"')) return `${meta.slice(0, -1)},"leadId":${lead}}`;
  return JSON.stringify({ ...JSON.parse(meta), leadId });
}
