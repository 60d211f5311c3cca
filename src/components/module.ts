/**
 * The contract of a component module: everything about one component type (or family) in one place.
 * `catalogue.ts` lists the modules; forms, themes, the public pages, submissions, uploads, summaries,
 * exports and the GraphQL schema read every type-specific rule from them, so no code outside
 * src/components/ names a component type.
 */
import type { ObjectRef } from '@pothos/core';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { BuilderTypes, builder } from '../graphql/builder.ts';
import type { Fields, Problems, StoredResponse } from './answers.ts';
import type { AnswerValue, ConditionSubject } from './conditions.ts';
import type { ContentRules } from './content.ts';
import type { PostedFields } from './fields.ts';
import type { Html, RenderContext } from './markup.ts';
import type { ComponentStyle, StoredComponent, Theme } from '../db/json-columns.ts';

export type ComponentFields = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, StoredComponent>;
export type AnswerFields = PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, StoredResponse>;
type FieldMap = Record<string, unknown>;

/**
 * Handed to a module's `graphql` (by components.graphql.ts) so modules never import the schema builder
 * at runtime: services read the catalogue without loading GraphQL.
 */
export interface GraphQLKit {
  builder: typeof builder;
  /** A member of the Component union: `id`, `type`, raw `content`, plus the type's own fields. */
  component(name: string, description: string, fields?: (t: ComponentFields) => FieldMap): ObjectRef<BuilderTypes, StoredComponent>;
  /** A member of the Answer union: `type`, `headline`, `componentShapeVersion`, `leadAttribute`, plus the type's own fields. */
  answer(name: string, description: string, fields?: (t: AnswerFields) => FieldMap): ObjectRef<BuilderTypes, StoredResponse>;
  /** A nullable string / boolean field read from the component's content. */
  text(t: ComponentFields, key: string): unknown;
  bool(t: ComponentFields, key: string): unknown;
}

/** The GraphQL members a module defines, keyed by the component type (or answered type) they describe. */
export interface GraphQLMembers {
  components?: Record<string, ObjectRef<BuilderTypes, StoredComponent>>;
  answers?: Record<string, ObjectRef<BuilderTypes, StoredResponse>>;
}

/**
 * What an answer looks like, as zod schemas: the REST contract (rest/contract.ts) turns them into the OpenAPI
 * document's `Answer.<type>` and `StoredAnswer.<type>`. What a component's content narrows (a Rating's
 * `scale`, a Matrix's rows) goes in the schemas' descriptions.
 */
export interface AnswerShapes {
  /** The answer the JSON API takes (`answers[<questionId>]`), as `parse` reads it. */
  answer: z.ZodType;
  /** The fields `parse` stores, beside `type`, `headline`, `componentShapeVersion` and `leadAttribute`. */
  stored: Record<string, z.ZodType>;
}

export interface AnswerRules {
  /** Its answer's shapes (the JSON API's and the stored one), for the OpenAPI document. */
  shapes: AnswerShapes;
  /**
   * Validates `raw` (the JSON API's answer shape) into the type's stored fields, or `null` for "no
   * answer"; problems carry paths relative to the answer.
   */
  parse(component: StoredComponent, raw: unknown, problems: Problems, required: boolean): Fields;
  /** The answer the page's posted fields give; `undefined` keeps the stored one. */
  fromFields(component: StoredComponent, fields: PostedFields, stored: StoredResponse | undefined): unknown;
  /** A stored response back in the answer shape (to prefill a step); secrets are never returned. */
  toAnswer(component: StoredComponent, response: StoredResponse): unknown;
  /** Whether it must be answered before a response can finish (default: content `required: true`). */
  isRequired?(component: StoredComponent): boolean;
}

/** Its answers in a CSV export (responses/export.ts). */
export interface ExportRules {
  /**
   * Its columns, each headed `<label> [<questionId>.<key>]` and holding one field of the stored answer
   * (`key`), written by `cellText`. Default: one column, headed `<headline> [<questionId>]`.
   */
  columns?(component: StoredComponent): { label: string; key: string }[];
  /**
   * A stored answer as the text of its one column; `cellText` (answers.ts) writes values as every cell
   * does. Default (also when it answers undefined): its `input`, `emailAddress` or `fileUrl`, else its
   * fields as JSON.
   */
  cell?(response: StoredResponse): string | undefined;
  /** The text of the column `key` names (one of `columns`); default: the stored answer's field `key`, as `cellText` writes it. */
  part?(response: StoredResponse, key: string): string;
}

/** How a form's summary counts and measures its answers (responses/summary.service.ts). */
export interface SummaryRules {
  /**
   * The one field of the stored response that `option`, `chosen`, `number` and `date` read besides its
   * `type` (e.g. `value`): the summary groups a question's answers by that field's value and runs those
   * hooks once per distinct value, over a response holding only `type` and that field, so answers that
   * agree cost one evaluation. Without it (hooks that read several fields) they run once per distinct
   * whole response.
   */
  field?: string;
  /** The options a question offers, in the form's order: each is listed, chosen or not (with `option` or `chosen`). */
  options?(component: StoredComponent): string[];
  /**
   * The one option an answer chose, for the types that choose at most one (a scale's value, a Date's
   * month, a Disclaimer's check): an SQL text expression over `response`, the answer's stored response as
   * jsonb, NULL for none or for an answer of another type. Computed where the answer is unpacked, it
   * costs no query of its own per answer, so a type that can have it has it instead of `chosen`.
   */
  option?: (response: SQL) => SQL;
  /**
   * The options one answer chose, for the types that choose several (a multi-select, a Matrix's pairs,
   * a Ranking's positions): a SELECT of one text column, each option once, given `response`, the
   * answer's stored response as jsonb. It runs inside the summary's one statement for each distinct
   * answer (by `field`) of the module's types, so it selects nothing for an answer of another type.
   */
  chosen?: (response: SQL) => SQL;
  /**
   * The number one answer holds, as an SQL expression (NULL for an answer of another type): the summary
   * gives its count, mean, median, minimum and maximum.
   */
  number?: (response: SQL) => SQL;
  /** The date one answer holds, as an SQL text `YYYY-MM-DD` (NULL for another type): the summary gives the earliest and latest. */
  date?: (response: SQL) => SQL;
  /**
   * The free text one answer holds, as SQL text (NULL for an answer of another type): a results page
   * whose share link includes text answers lists the latest. Only types whose answers are the
   * respondent's own words have it (never identity fields, e-mail, files or passwords).
   */
  freeText?: (response: SQL) => SQL;
  /** A Net Promoter Score from the counts per option (`options`). */
  promoterScore?(counts: ReadonlyMap<string, number>): PromoterScore;
  /**
   * A question of several parts (a Matrix's rows, a Ranking's options): each part's counts, from the
   * counts of what `chosen` (or `option`) selected (the summary then gives these instead of `options`).
   */
  rows?(component: StoredComponent, counts: ReadonlyMap<string, number>): RowSummary[];
}

/** One part of a question in its summary: the count of each of its options, and (Ranking) the mean position. */
export interface RowSummary {
  row: string;
  options: { option: string; count: number }[];
  mean: number | null;
}

/** Promoters, passives and detractors of a 0–10 question, and the score: % promoters − % detractors (−100…100). */
export interface PromoterScore {
  promoters: number;
  passives: number;
  detractors: number;
  score: number | null;
}

/** Uploaded files: a component of this type takes them (POST /s/:formId/uploads) and answers with their ids (src/uploads/). */
export interface UploadRules {
  /** What one upload for it may carry, `maxBodyBytes` being the server's largest upload body. */
  limits(component: StoredComponent, maxBodyBytes: number): { allowedTypes: string[]; maxBytes: number; maxFiles: number };
  /** The upload ids a stored answer uses. */
  uploadIds(response: StoredResponse): string[];
}

/** How the theme styles it (forms/theme.ts, public/styles.ts). */
export interface StyleRules {
  /** Its style where a template's theme has none for it, in the template's colours. Default: a field's. */
  defaults?: (colors: Theme['colors']) => ComponentStyle;
  /** Styled as a button (`.fl-button.fl-t-<type>`: a fill and its text) rather than a field (`.fl-c.fl-t-<type>`). */
  button?: boolean;
  /** Rules of its own in every page's stylesheet. */
  css?: string;
}

/** An e-mail address a stored answer holds, and its rank among a response's candidates (lower first). */
export interface EmailCandidate {
  rank: number;
  value: unknown;
}

/**
 * How conditional logic reads a component's answers (src/components/conditions.ts): what it is as a
 * condition's subject (the ops follow from that) and the value of a stored answer.
 */
export interface ConditionRules {
  /**
   * The subject a condition on this component (and `field`, when given) tests; a string says why the
   * condition can't be (e.g. `field` is not one of its fields).
   */
  subject(component: StoredComponent, field: string | undefined): ConditionSubject | string;
  /** A stored answer as conditions compare it; `undefined` counts as unanswered. */
  value(component: StoredComponent, response: StoredResponse, field: string | undefined): AnswerValue;
}

export interface ComponentModule {
  /** Every input type this module accepts, with its content rules (older names carry `storedType`). */
  types: Readonly<Record<string, ContentRules>>;
  /**
   * The texts a respondent reads in its content, as paths (`*`: every element of a list): what a
   * multilingual form may give one per language (src/forms/translations.ts). Default: TEXT_FIELDS.
   */
  texts?: readonly string[];
  /** How a component is answered; a module without it takes no answer and records nothing. */
  answer?: AnswerRules;
  /** The question text a response carries as `headline` (default: content `question`). */
  headline?: (component: StoredComponent) => string;
  /** Whether its fields include files (the step's form is then posted as multipart/form-data). */
  multipart?: boolean;
  /** Its markup on the public page (default: its text content, as text). */
  render?: (component: StoredComponent, ctx: RenderContext) => Html | string;
  /** Origins it embeds in frames (the page's CSP `frame-src`). */
  frameOrigins?(component: StoredComponent): string[];
  /** Origins it loads scripts from (the page's CSP `script-src`). */
  scriptOrigins?(component: StoredComponent): string[];
  /** Its GraphQL types. */
  graphql?(kit: GraphQLKit): GraphQLMembers;
  /** Its answers in a CSV export; default: see ExportRules. */
  export?: ExportRules;
  /** Counted per option, measured (numbers, dates) in a form's summary. */
  summary?: SummaryRules;
  /** Takes uploaded files. */
  uploads?: UploadRules;
  /** How the theme styles it. */
  style?: StyleRules;
  /** Whether it renders the step's submit button (a step without one gets the plain one, buttons.ts). */
  submitsStep?: boolean;
  /**
   * Whether this component guards the form (a captcha, a consent that must be given): the current
   * version's guards apply to every response, one on an older version included (versions.service.ts).
   */
  guards?: (component: StoredComponent) => boolean;
  /**
   * The e-mail addresses its stored answer holds, for the response's lead: the response's e-mail is the
   * first valid one of the lowest rank, in answer order. Default: its `emailAddress`, rank DEFAULT_EMAIL_RANK.
   */
  emails?(response: StoredResponse): EmailCandidate[];
  /**
   * The element a message about one part of its answer (`part`: an IdentityInfo key, a Ranking index)
   * links to from the page's error summary, as a DOM id; default (and for the whole answer): its box, `q-<id>`.
   */
  errorAnchor?(component: StoredComponent, part: string): string | undefined;
  /** Whether this component is its step's visible heading (`h1`); a step without one shows the form's name as its `h1`. */
  stepHeading?(component: StoredComponent): boolean;
  /** How conditions test its answers; a module without it can't be tested by a condition. */
  conditions?: ConditionRules;
  /**
   * Its answer as a recall placeholder shows it: the text the respondent saw, `shown` being the component
   * in their language (src/responses/recall-values.ts); `writtenIn`, where numbers, days and times are
   * written in the respondent's language (the page, e-mails), that language (undefined where values are
   * given raw: the JSON API's `recall`). Default: the export's cell, a choice's option in the respondent's
   * language.
   */
  recall?(shown: StoredComponent, response: StoredResponse, writtenIn: string | undefined): string | undefined;
  /**
   * The fields of its answer a confirmation e-mail may be sent to (a form's `notifications.respondent
   * .emailFrom`): with one, the component's key names it; with several, `<key>.<field>`.
   */
  confirmationEmailFields?: readonly string[];
}

/** The texts most components show: a module's `texts` unless it says otherwise. */
export const TEXT_FIELDS = ['question', 'subheading', 'placeholder'] as const;

/** The rank of an answer's `emailAddress` when its module ranks none (after every module's own). */
export const DEFAULT_EMAIL_RANK = 2;
