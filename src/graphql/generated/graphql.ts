/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar. */
  DateTime: { input: string; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
  /** A text a respondent reads: a string (the form's default language), or an object of one string per language of the form, e.g. {"en": "Contact", "de": "Kontakt"}. */
  LocalizedText: { input: string | Record<string, unknown>; output: string | Record<string, unknown>; }
};

/** Holds when every one of its conditions holds. */
export type AllCondition = {
  __typename?: 'AllCondition';
  all: Array<Condition>;
};

/** Typed view of one answer; the member follows the answered component's type. */
export type Answer = DateAnswer | DisclaimerAnswer | DropdownAnswer | FileUploaderAnswer | GraphicOptionsAnswer | IdentityInfoAnswer | LongInputAnswer | MatrixAnswer | MultipleOptionsQuestionAnswer | NpsAnswer | NumberAnswer | OpinionScaleAnswer | OtherAnswer | PasswordInputAnswer | RankingAnswer | RatingAnswer | SchedulerAnswer | ShortInputAnswer;

/** Holds when at least one of its conditions holds. */
export type AnyCondition = {
  __typename?: 'AnyCondition';
  any: Array<Condition>;
};

/** An API key. Its secret is shown only once, by createApiKey. */
export type ApiKey = Node & {
  __typename?: 'ApiKey';
  createdAt: Scalars['DateTime']['output'];
  environmentId: Scalars['ID']['output'];
  /** From this instant the key is invalid; null: it does not expire. */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** The forms the key is limited to (any other form is, to it, one that does not exist); null: every form of its environment. */
  formIds?: Maybe<Array<Scalars['ID']['output']>>;
  /** True for a key made without scopes and not limited to forms: it holds every scope, including ones added later. */
  fullAccess: Scalars['Boolean']['output'];
  /** Public prefix of the key; use it to revoke the key. */
  id: Scalars['ID']['output'];
  /** When the key last authenticated a request (to within about a minute); null if never. */
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  name: Scalars['String']['output'];
  /** @deprecated Use `id`: `node(id:)` and `nodes(ids:)` take it. */
  nodeId: Scalars['ID']['output'];
  /** How the key starts (`fl_<id>_`): recognise a key without seeing its secret. */
  prefix: Scalars['String']['output'];
  revoked: Scalars['Boolean']['output'];
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  /** What the key may do. A key made without scopes (by the admin token, or before keys had scopes) holds every scope; a key limited to forms holds no environment-wide scope (settings:manage, audit:read). */
  scopes: Array<Scope>;
};

/** One administrative action. Names ids and counts only, never secrets or personal data. */
export type AuditEntry = {
  __typename?: 'AuditEntry';
  /** e.g. `form.generate`, `responses.delete`, `lead.erase` (docs/privacy.md, "Audit log"). */
  action: Scalars['String']['output'];
  /** The API key that acted; null otherwise. */
  actorKeyId?: Maybe<Scalars['ID']['output']>;
  /** `apiKey`, `admin` (the admin token) or `system` (the retention job). */
  actorKind: Scalars['String']['output'];
  at: Scalars['DateTime']['output'];
  /** Counts and setting values of the action. */
  details: Scalars['JSON']['output'];
  environmentId: Scalars['ID']['output'];
  id: Scalars['ID']['output'];
  /** The ids acted on. */
  targetIds: Array<Scalars['ID']['output']>;
};

/** A page of audit entries, newest first. */
export type AuditLogConnection = {
  __typename?: 'AuditLogConnection';
  edges: Array<AuditLogEdge>;
  pageInfo: PageInfo;
};

export type AuditLogEdge = {
  __typename?: 'AuditLogEdge';
  cursor: Scalars['String']['output'];
  node: AuditEntry;
};

/** Changes a form variable when its rule holds (docs/logic.md). */
export type Calculation = {
  __typename?: 'Calculation';
  op: CalculationOp;
  /** A number, a text, {question: <key>}, {scoreOf: <key>} or {variable: <name>}. */
  value: Scalars['JSON']['output'];
  variable: Scalars['String']['output'];
};

/** set, add, subtract, multiply, divide (by zero: unchanged) a number variable; set or append to a text variable. */
export type CalculationOp =
  | 'add'
  | 'append'
  | 'divide'
  | 'multiply'
  | 'set'
  | 'subtract';

export type Calendar = {
  __typename?: 'Calendar';
  dataUrl: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

/** Scheduling providers a Scheduler component can embed. */
export type CalendarProvider =
  | 'Cal'
  | 'Calendly'
  | 'ChiliCal'
  | 'Clari'
  | 'Hubspot'
  | 'ReclaimAI'
  | 'RevenueHero'
  | 'SavvyCal';

/** An environment's own keys of one captcha provider. The secret key is write-only: only whether one is set is shown. */
export type CaptchaKeys = {
  __typename?: 'CaptchaKeys';
  /** Whether the environment has a secret key of its own (else the server's applies, if it has one). The key itself is never returned. */
  secretKeySet: Scalars['Boolean']['output'];
  /** The environment's own site key; null: the server's (TURNSTILE_SITE_KEY / RECAPTCHA_SITE_KEY) applies. */
  siteKey?: Maybe<Scalars['String']['output']>;
};

/** An environment's keys of one captcha provider. A key left out stays as it is; null removes it (the server's applies again). */
export type CaptchaKeysInput = {
  /** The provider's secret key, used to verify tokens: write-only (never returned, logged or audited), stored encrypted. At most 500 printable ASCII characters. */
  secretKey?: InputMaybe<Scalars['String']['input']>;
  /** The provider's site key (public; shown in the page). At most 200 printable ASCII characters. */
  siteKey?: InputMaybe<Scalars['String']['input']>;
};

/** One choice of a MultipleOptionsQuestion and whether it was picked. */
export type ChoiceAnswer = {
  __typename?: 'ChoiceAnswer';
  index: Scalars['Int']['output'];
  key: Scalars['String']['output'];
  value: Scalars['Boolean']['output'];
};

/** A component of a form step; the member follows the component type. */
export type Component = DateQuestion | Disclaimer | Dropdown | DynamicScheduler | Header | IdentityInfo | LongInput | Matrix | MultipleOptionsQuestion | Nps | NextBackButtons | NextButton | NumberQuestion | OpinionScale | OtherComponent | Ranking | Rating | Scheduler | ShortInput;

/** A component: its type and a content object whose shape depends on the type. */
export type ComponentInput = {
  content: Scalars['JSON']['input'];
  /** updateForm only: the id of a component of the same type of this form (in any version) to keep, so its answers keep their questionId. Left out: a new id. generateForm and importForm ignore it. */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** The name conditions use; unique across the form's components. */
  key?: InputMaybe<Scalars['String']['input']>;
  type: Scalars['String']['input'];
};

/** Styles of one component type. */
export type ComponentStyle = {
  __typename?: 'ComponentStyle';
  accentColor?: Maybe<Scalars['String']['output']>;
  backgroundColor?: Maybe<Scalars['String']['output']>;
  borderColor?: Maybe<Scalars['String']['output']>;
  borderRadius?: Maybe<Scalars['Int']['output']>;
  componentType: Scalars['String']['output'];
  fontSize?: Maybe<Scalars['Int']['output']>;
  textColor?: Maybe<Scalars['String']['output']>;
};

/** A test on the answers so far, the hidden fields or the variables: a group (all, any, not) or a leaf. */
export type Condition = AllCondition | AnyCondition | HiddenFieldCondition | NotCondition | QuestionCondition | VariableCondition;

/** How a condition compares. equals/notEquals: the same value (numbers as numbers when both sides are numbers); contains/notContains: a substring of a text answer, or a member of a multiple choice; in/notIn: equals one of a list; greaterThan/lessThan/greaterOrEqual/lessOrEqual: both sides numbers; between: value [low, high], both ends included (two numbers, or two dates); before/after: dates YYYY-MM-DD; answered/notAnswered: whether there is an answer (or a hidden value). */
export type ConditionOp =
  | 'after'
  | 'answered'
  | 'before'
  | 'between'
  | 'contains'
  | 'equals'
  | 'greaterOrEqual'
  | 'greaterThan'
  | 'in'
  | 'lessOrEqual'
  | 'lessThan'
  | 'notAnswered'
  | 'notContains'
  | 'notEquals'
  | 'notIn';

export type CreateApiKeyInput = {
  /** The key's environment; a key creating keys names its own. */
  environmentId: Scalars['ID']['input'];
  /** From this instant the new key is invalid. Left out: the creator's expiry (none for the admin token). A key grants no later expiry than its own. */
  expiresAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Limit the new key to these forms of the environment (1 to 100). Left out: the creator's forms (every form for the admin token). A key grants only forms it is limited to. */
  formIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** A label to recognise the key by. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** What the new key may do. Left out: the creator's scopes (a key's own; for the admin token, every scope). A key grants at most its own. */
  scopes?: InputMaybe<Array<Scope>>;
};

export type CreateApiKeyPayload = {
  __typename?: 'CreateApiKeyPayload';
  apiKey: ApiKey;
  /** The secret key. Shown only here: store it now. */
  key: Scalars['String']['output'];
};

export type CreateEnvironmentInput = {
  /** The Site ID to use; generated when absent. 1-64 letters, digits, "_" or "-". */
  id?: InputMaybe<Scalars['ID']['input']>;
  name: Scalars['String']['input'];
};

export type CreateShareLinkInput = {
  /** When the link stops working (in the future); left out: until revoked. */
  expiresAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** List free-text answers on the page. Default false. */
  includeTextAnswers?: InputMaybe<Scalars['Boolean']['input']>;
};

export type CreateShareLinkPayload = {
  __typename?: 'CreateShareLinkPayload';
  shareLink: ShareLink;
  /** The page, `/r/<token>` (relative to the server): shown only now. */
  url: Scalars['String']['output'];
};

export type CreateWebhookEndpointInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  /** Default true. */
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Required with the admin token; an API key works in its own environment. */
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  /** At least one. Event types: `response.created`, `response.updated`, `response.finished`, `form.generated`, `form.updated`. */
  eventTypes: Array<Scalars['String']['input']>;
  /** Only events of these forms (of the environment); omit or null for every form. */
  formIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** `standard` (the event as JSON, the default) or `slack` (`{text, blocks}` that Slack and Mattermost incoming webhooks show; still signed). */
  format?: InputMaybe<Scalars['String']['input']>;
  /** `slack` only: put the response's answers in the message (passwords never). Default false. */
  includeAnswers?: InputMaybe<Scalars['Boolean']['input']>;
  /** http(s) URL; loopback, private and link-local addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1. */
  url: Scalars['String']['input'];
};

export type CreateWebhookEndpointPayload = {
  __typename?: 'CreateWebhookEndpointPayload';
  endpoint: WebhookEndpoint;
  /** The signing secret (`whsec_…`). Shown only here: store it now. */
  secret: Scalars['String']['output'];
};

/** Answer to a Date question. */
export type DateAnswer = {
  __typename?: 'DateAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The day answered, YYYY-MM-DD (stored as `value`). */
  date?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A calendar day (type "Date"), YYYY-MM-DD, within min…max. */
export type DateQuestion = {
  __typename?: 'DateQuestion';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  /** The latest day accepted (content `max`). */
  maxDate?: Maybe<Scalars['String']['output']>;
  /** The earliest day accepted (content `min`). */
  minDate?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** The earliest and latest dates a Date question was answered with (YYYY-MM-DD); null without answers. */
export type DateRange = {
  __typename?: 'DateRange';
  earliest?: Maybe<Scalars['String']['output']>;
  latest?: Maybe<Scalars['String']['output']>;
};

export type DeleteFormPayload = {
  __typename?: 'DeleteFormPayload';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

export type DeleteResponsePayload = {
  __typename?: 'DeleteResponsePayload';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

/** Which responses to delete: all conditions given must hold, and at least one must be given. */
export type DeleteResponsesFilter = {
  /** Defaults to CREATED_AT. */
  dateField?: InputMaybe<ResponseDateField>;
  /** Only this form's responses (a deleted form's too). */
  formId?: InputMaybe<Scalars['ID']['input']>;
  /** Only unfinished (partial) responses. */
  partialOnly?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only responses whose `dateField` is at or after this instant. */
  since?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only responses whose `dateField` is before this instant. */
  until?: InputMaybe<Scalars['DateTime']['input']>;
};

export type DeleteResponsesPayload = {
  __typename?: 'DeleteResponsesPayload';
  /** Responses deleted. */
  deletedCount: Scalars['Int']['output'];
  /** Webhook events (with their pending deliveries) deleted with them. */
  webhookEventsDeleted: Scalars['Int']['output'];
};

export type DeletedWebhookEndpoint = {
  __typename?: 'DeletedWebhookEndpoint';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

/** A respondent's device class, from the User-Agent (no User-Agent, or an unknown one, is desktop). */
export type DeviceClass =
  | 'DESKTOP'
  | 'MOBILE'
  | 'TABLET';

/** Legal text with a check box. */
export type Disclaimer = {
  __typename?: 'Disclaimer';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  text?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a Disclaimer. */
export type DisclaimerAnswer = {
  __typename?: 'DisclaimerAnswer';
  /** The box was ticked. */
  check?: Maybe<Scalars['Boolean']['output']>;
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A select box; check boxes when isMulti. */
export type Dropdown = {
  __typename?: 'Dropdown';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  hideQuestion?: Maybe<Scalars['Boolean']['output']>;
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  isMulti?: Maybe<Scalars['Boolean']['output']>;
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  options: Array<Scalars['String']['output']>;
  placeholder?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a Dropdown. */
export type DropdownAnswer = {
  __typename?: 'DropdownAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** True when the stored answer is a list. */
  isMulti: Scalars['Boolean']['output'];
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The option(s) picked; one element unless the dropdown is multi-select. */
  selected: Array<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A scheduler choosing among several calendars. */
export type DynamicScheduler = {
  __typename?: 'DynamicScheduler';
  calendarType?: Maybe<CalendarProvider>;
  calendars: Array<Calendar>;
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  defaultCalendar: Calendar;
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  message?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** A tenant. Its id is the Site ID used in API paths. */
export type Environment = Node & {
  __typename?: 'Environment';
  /** Every API key of the environment, revoked ones included, newest first. Never a secret. Needs the API key scope `keys:manage`. */
  apiKeys: Array<ApiKey>;
  createdAt: Scalars['DateTime']['output'];
  /** Sites that may embed the environment's forms in a frame (the pages' CSP frame-ancestors): origins, or `["*"]` for any site; `[]`: no other site. null: the server's FRAME_ANCESTORS applies. Needs the API key scope `settings:manage`. */
  embedOrigins?: Maybe<Array<Scalars['String']['output']>>;
  /** Forms of the environment (deleted ones excepted), newest first. Needs the API key scope `forms:read`. */
  forms: FormConnection;
  /** The object's id: the same as in the REST API; `node(id:)` finds the object by it. */
  id: Scalars['ID']['output'];
  /** Views, conversion and time to complete over every form of the environment (deleted forms aside), with a time series and breakdowns. Needs the API key scope `forms:read`. */
  insights: Insights;
  /** How IP addresses of new responses are stored. Needs the API key scope `settings:manage`. */
  ipStorage: IpStorage;
  /** Leads of the environment, newest first. Needs the API key scope `responses:read`. */
  leads: LeadConnection;
  name: Scalars['String']['output'];
  /** @deprecated Use `id`: `node(id:)` and `nodes(ids:)` take it. */
  nodeId: Scalars['ID']['output'];
  /** The environment's own Google reCAPTCHA keys (Recaptcha). Needs the API key scope `settings:manage`. */
  recaptcha: CaptchaKeys;
  /** Responses of every form of the environment, newest first: the same as `environmentResponses`. Needs the API key scope `responses:read`. */
  responses: FormResponseConnection;
  /** Responses older than this many days are deleted by the retention job (a form may set its own); null: kept. Needs the API key scope `settings:manage`. */
  retentionDays?: Maybe<Scalars['Int']['output']>;
  /** The environment's own SMTP server for e-mail notifications (docs/notifications.md). Needs the API key scope `settings:manage`. */
  smtp: SmtpSettings;
  /** The environment's own Cloudflare Turnstile keys (TurnstileWidget). Needs the API key scope `settings:manage`. */
  turnstile: CaptchaKeys;
};


/** A tenant. Its id is the Site ID used in API paths. */
export type EnvironmentFormsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<FormFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A tenant. Its id is the Site ID used in API paths. */
export type EnvironmentInsightsArgs = {
  filter?: InputMaybe<InsightsFilter>;
};


/** A tenant. Its id is the Site ID used in API paths. */
export type EnvironmentLeadsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<LeadFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A tenant. Its id is the Site ID used in API paths. */
export type EnvironmentResponsesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** Fields left out stay as they are. */
export type EnvironmentSettingsInput = {
  /** Sites that may embed the environment's forms in a frame: origins such as `https://www.example.com` (scheme, host and optional port, no path), or `["*"]` for any site; `[]`: no other site. null: the server's FRAME_ANCESTORS applies again. */
  embedOrigins?: InputMaybe<Array<Scalars['String']['input']>>;
  ipStorage?: InputMaybe<IpStorage>;
  /** The environment's own Google reCAPTCHA keys (Recaptcha). */
  recaptcha?: InputMaybe<CaptchaKeysInput>;
  /** 1 to 36500; null: keep responses indefinitely. */
  retentionDays?: InputMaybe<Scalars['Int']['input']>;
  /** The environment's own SMTP server and sender for e-mail notifications. */
  smtp?: InputMaybe<SmtpSettingsInput>;
  /** The environment's own Cloudflare Turnstile keys (TurnstileWidget). */
  turnstile?: InputMaybe<CaptchaKeysInput>;
};

/** What an erasure did. `erased` false: there was no such person (nothing to do, or erased before by e-mail). */
export type EraseLeadPayload = {
  __typename?: 'EraseLeadPayload';
  /** The lead was erased by an earlier call; nothing was deleted now. */
  alreadyErased: Scalars['Boolean']['output'];
  erased: Scalars['Boolean']['output'];
  erasure?: Maybe<Erasure>;
};

/** The record that a person was erased: when, by whom, how many rows. It holds no personal data. */
export type Erasure = {
  __typename?: 'Erasure';
  /** The API key that asked; null for the admin token. */
  actorKeyId?: Maybe<Scalars['ID']['output']>;
  /** `apiKey` or `admin`. */
  actorKind: Scalars['String']['output'];
  environmentId: Scalars['ID']['output'];
  erasedAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** The erased lead's id (a random id that no longer leads anywhere). */
  leadId: Scalars['ID']['output'];
  responsesDeleted: Scalars['Int']['output'];
  /** Webhook events (with their pending deliveries) that carried the responses. */
  webhookEventsDeleted: Scalars['Int']['output'];
};

/** Answer to a FileUploader. */
export type FileUploaderAnswer = {
  __typename?: 'FileUploaderAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The first file: a URL signed to work without an API key until it expires (FILE_URL_TTL_SECONDS); a link answer as given. */
  fileUrl?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A form: its steps, theme and public url. */
export type Form = Node & {
  __typename?: 'Form';
  /** Whether the final screen offers "Submit another response". */
  allowAnotherResponse: Scalars['Boolean']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The current version's definition (the same name, steps and hidden fields as the form's own fields); its steps take their size from the request's budget of GRAPHQL_MAX_DEFINITION_BYTES. */
  definition: FormDefinition;
  environmentId: Scalars['ID']['output'];
  /** Its finished responses: what `limits.maxResponses` counts. Needs the API key scope `forms:read`. */
  finishedResponses: Scalars['Int']['output'];
  /** The forms generated from this one as their template (deleted ones excepted), newest first. */
  generatedForms: FormConnection;
  /** Names of the values a response may bring in the page URL or the JSON API; conditions test them. */
  hiddenFields: Array<Scalars['String']['output']>;
  /** The object's id: the same as in the REST API; `node(id:)` finds the object by it. */
  id: Scalars['ID']['output'];
  /** Views, conversion, drop-off per step and time to complete of the form, with a time series and breakdowns. Needs the API key scope `forms:read`. */
  insights: Insights;
  /** A multilingual form's languages; null: one language (`locale`'s). */
  languages?: Maybe<FormLanguages>;
  /** When it takes responses and how many; null: always, without a limit. */
  limits?: Maybe<FormLimits>;
  /** The language of the page's own words: a BCP 47 tag in one of the built-in languages (en, de, fr, es, it, nl, pt, pl, ja, ar), with an optional region. */
  locale: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** @deprecated Use `id`: `node(id:)` and `nodes(ids:)` take it. */
  nodeId: Scalars['ID']['output'];
  /** The form's e-mail deliveries, newest first: one per recipient address (docs/notifications.md). Needs the API key scope `responses:read`. */
  notificationDeliveries: NotificationDeliveryConnection;
  /** Who hears of its responses by e-mail; null: nobody. */
  notifications?: Maybe<FormNotifications>;
  /** Its quotas, each with its count. Needs the API key scope `forms:read`. */
  quotas: Array<Quota>;
  /** Responses of this form, newest first, with the filters of `formResponses`. Needs the API key scope `responses:read`. */
  responses: FormResponseConnection;
  /** This form's retention in days, overriding its environment's; null: the environment's applies. */
  retentionDays?: Maybe<Scalars['Int']['output']>;
  /** The template this form was generated from; null for an imported form, or when the template was deleted. */
  sourceForm?: Maybe<Form>;
  /** The template it was generated from. */
  sourceFormId?: Maybe<Scalars['ID']['output']>;
  status: FormStatus;
  /** The current steps. They take their size from the request's budget of GRAPHQL_MAX_DEFINITION_BYTES, as `definition` does. */
  steps: Array<Step>;
  /** A summary of the form's responses (finished and unfinished), computed by the database. Needs the API key scope `responses:read`. */
  summary: FormSummary;
  theme: Theme;
  /** One language's texts as a flat document, `{"<stable path>": "text"}` (the default language: every text); null when it is not a language of the form. */
  translation?: Maybe<Scalars['JSON']['output']>;
  /** Every language of the form (the default first) with how complete it is. */
  translations: Array<FormTranslation>;
  updatedAt: Scalars['DateTime']['output'];
  /** Public path of the form, `/s/<id>`. */
  url: Scalars['String']['output'];
  /** Values the rules calculate along a response (docs/logic.md). */
  variables: Array<FormVariable>;
  /** The current version of the form's definition: 1 when created, one more with each update (`updateForm`). */
  version: Scalars['Int']['output'];
  /** Every version of the definition, newest first (the current one first). */
  versions: FormVersionConnection;
};


/** A form: its steps, theme and public url. */
export type FormGeneratedFormsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<FormFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A form: its steps, theme and public url. */
export type FormInsightsArgs = {
  filter?: InputMaybe<InsightsFilter>;
};


/** A form: its steps, theme and public url. */
export type FormNotificationDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A form: its steps, theme and public url. */
export type FormResponsesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A form: its steps, theme and public url. */
export type FormSummaryArgs = {
  filter?: InputMaybe<SummaryFilter>;
};


/** A form: its steps, theme and public url. */
export type FormTranslationArgs = {
  locale: Scalars['String']['input'];
};


/** A form: its steps, theme and public url. */
export type FormVersionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A page of forms, newest first (created_at DESC, id DESC). */
export type FormConnection = {
  __typename?: 'FormConnection';
  edges: Array<FormEdge>;
  pageInfo: PageInfo;
};

/** What a version of a form says: its name, steps, hidden fields, locale and notifications (what updateForm changes). */
export type FormDefinition = {
  __typename?: 'FormDefinition';
  /** Names of the values respondents bring in the URL or through the JSON API. */
  hiddenFields: Array<Scalars['String']['output']>;
  /** The definition as one JSON object, as `GET /api/v1/forms/{formId}` shows it and `updateForm`/PATCH take it back: steps and components with their ids. */
  json: Scalars['JSON']['output'];
  /** A multilingual form's languages; null: one language. */
  languages?: Maybe<FormLanguages>;
  /** The language of the page's own words (a BCP 47 tag). */
  locale: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** Who hears of the responses started on this version; null: nobody. */
  notifications?: Maybe<FormNotifications>;
  steps: Array<Step>;
  variables: Array<FormVariable>;
};

export type FormEdge = {
  __typename?: 'FormEdge';
  cursor: Scalars['String']['output'];
  node: Form;
};

/** Which forms a listing holds. Deleted forms are never listed. */
export type FormFilter = {
  /** Only forms whose name contains this text (case-insensitive). */
  nameContains?: InputMaybe<Scalars['String']['input']>;
  /** Only forms in this state. */
  status?: InputMaybe<FormStatus>;
};

/** The languages of a multilingual form. */
export type FormLanguages = {
  __typename?: 'FormLanguages';
  /** The language its texts are written in first: what a text without a translation shows. */
  default: Scalars['String']['output'];
  others: Array<Scalars['String']['output']>;
};

export type FormLanguagesInput = {
  /** The language of the texts given as strings. */
  default: Scalars['String']['input'];
  /** The other languages, each at most once. */
  others?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** When the form takes responses and how many (docs/logic.md, Limits). */
export type FormLimits = {
  __typename?: 'FormLimits';
  /** The text of the closed screen (in the default language). */
  closedMessage?: Maybe<Scalars['String']['output']>;
  /** From it on the form is closed. */
  closesAt?: Maybe<Scalars['DateTime']['output']>;
  /** The limits as `limits` takes them back: a translated message as one text per language (`{"en": "…", "de": "…"}`). */
  json: Scalars['JSON']['output'];
  /** Finished responses the form takes; then it is full. */
  maxResponses?: Maybe<Scalars['Int']['output']>;
  /** The text of the screen before `opensAt` (in the default language); its opening time is shown below it. */
  notYetOpenMessage?: Maybe<Scalars['String']['output']>;
  /** Before it the form is not open yet. */
  opensAt?: Maybe<Scalars['DateTime']['output']>;
};

/** When the form takes responses and how many; instants ISO 8601 with an offset or Z. */
export type FormLimitsInput = {
  /** The text of the closed screen: a string, or one text per language. */
  closedMessage?: InputMaybe<Scalars['LocalizedText']['input']>;
  closesAt?: InputMaybe<Scalars['String']['input']>;
  maxResponses?: InputMaybe<Scalars['Int']['input']>;
  /** The text of the screen before `opensAt`: a string, or one text per language. */
  notYetOpenMessage?: InputMaybe<Scalars['LocalizedText']['input']>;
  opensAt?: InputMaybe<Scalars['String']['input']>;
};

/** Who hears of the form's responses by e-mail. */
export type FormNotifications = {
  __typename?: 'FormNotifications';
  respondent?: Maybe<RespondentNotification>;
  team: Array<TeamNotification>;
};

/** Who hears of the form's responses by e-mail (docs/notifications.md). */
export type FormNotificationsInput = {
  respondent?: InputMaybe<RespondentNotificationInput>;
  /** At most 10. */
  team?: InputMaybe<Array<TeamNotificationInput>>;
};

/** A response to a form: the response object of `GET /api/v1/responses`. */
export type FormResponse = Node & {
  __typename?: 'FormResponse';
  createdAt: Scalars['DateTime']['output'];
  /** The answers, each raw and typed. */
  data: Array<QuestionResponse>;
  /** Last change of the answers. */
  dataUpdatedAt: Scalars['DateTime']['output'];
  /** true: completed; false: partial. */
  finished: Scalars['Boolean']['output'];
  /** The form answered; null once it is deleted. Needs the API key scope `forms:read`. */
  form?: Maybe<Form>;
  formId: Scalars['ID']['output'];
  /** The object's id: the same as in the REST API; `node(id:)` finds the object by it. */
  id: Scalars['ID']['output'];
  /** The respondent. */
  lead?: Maybe<Lead>;
  leadId: Scalars['ID']['output'];
  /** Metadata; includes `leadId`, `path` (the keys of the steps the response went through) and `hiddenFields` (the values it brought), and `invalid: true` on an invalid response. */
  meta: Scalars['JSON']['output'];
  /** @deprecated Use `id`: `node(id:)` and `nodes(ids:)` take it. */
  nodeId: Scalars['ID']['output'];
  personAttributes: PersonAttributes;
  /** The answers exactly as stored, as one value: `[{questionId, response}]` (what the REST API returns as `data`). */
  rawData: Scalars['JSON']['output'];
  /** 4 completed, 5 invalid (ended at an invalid step or action: unfinished, `meta.invalid`), 3 dropped off (unfinished and untouched for the drop-off time), 2 in progress. */
  status: Scalars['Int']['output'];
  updatedAt: Scalars['DateTime']['output'];
  /** The form variables as the rules along the response's path left them (`meta.variables`), by name. */
  variables: Array<ResponseVariable>;
  /** Version of the response format. */
  version: Scalars['String']['output'];
};

/** A page of responses, newest first (created_at DESC, id DESC). */
export type FormResponseConnection = {
  __typename?: 'FormResponseConnection';
  edges: Array<FormResponseEdge>;
  pageInfo: PageInfo;
};

export type FormResponseEdge = {
  __typename?: 'FormResponseEdge';
  cursor: Scalars['String']['output'];
  node: FormResponse;
};

/** DRAFT: not served. PUBLISHED: served at its url, accepting responses. CLOSED: its url shows "no longer accepting responses"; its responses stay readable and it can still be a template. Deleted forms are not listed. */
export type FormStatus =
  | 'CLOSED'
  | 'DRAFT'
  | 'PUBLISHED';

/** Counts over a form's responses, computed by the database. Status follows the responses' `status`: finished (4), in progress (2), dropped off (3), invalid (5). */
export type FormSummary = {
  __typename?: 'FormSummary';
  /** finished / total, from 0 to 1; 0 when there are no responses. */
  completionRate: Scalars['Float']['output'];
  /** Unfinished and untouched for the drop-off time (status 3). */
  droppedOff: Scalars['Int']['output'];
  /** Completed responses (status 4). */
  finished: Scalars['Int']['output'];
  /** Unfinished and touched within the drop-off time (status 2). */
  inProgress: Scalars['Int']['output'];
  /** Responses that ended at an invalid step or action (status 5): neither completed nor dropped off. */
  invalid: Scalars['Int']['output'];
  /** How many responses were answered in each language, the default language first (languages no response used are left out). */
  languages: Array<LanguageCount>;
  /** Unfinished responses: in progress plus dropped off (not invalid). */
  partial: Scalars['Int']['output'];
  /** Per answerable question, in form order: its answer count and, for choice types, the count per option. The current version's questions (with a `version` filter, that version's). */
  questions: Array<QuestionSummary>;
  /** Per step, in order, how many responses reached it: where respondents drop off. The current version's steps (with a `version` filter, that version's). */
  steps: Array<StepReach>;
  /** Responses started. */
  total: Scalars['Int']['output'];
  /** Each number variable of the form over its finished responses: count, mean, min, max. */
  variables: Array<VariableSummary>;
  /** How many responses answered each version of the form, newest version first (versions no response answered are left out). */
  versions: Array<VersionCount>;
};

/** How complete one language of a form is (the default language is complete). */
export type FormTranslation = {
  __typename?: 'FormTranslation';
  locale: Scalars['String']['output'];
  /** The stable paths of the texts without one (shown in the default language). */
  missing: Array<Scalars['String']['output']>;
  /** Texts of the form (those written in the default language). */
  total: Scalars['Int']['output'];
  /** Texts with a text in this language. */
  translated: Scalars['Int']['output'];
};

/** A value the rules calculate along a response: a number or a text, from `initial`. */
export type FormVariable = {
  __typename?: 'FormVariable';
  initial: Scalars['JSON']['output'];
  name: Scalars['String']['output'];
  /** `number` or `text`. */
  type: Scalars['String']['output'];
};

/** A form variable: a name (as a hidden field name), `number` or `text`, and where it starts (default 0 or ""). */
export type FormVariableInput = {
  initial?: InputMaybe<Scalars['JSON']['input']>;
  name: Scalars['String']['input'];
  /** `number` or `text`. */
  type: Scalars['String']['input'];
};

/** One version of a form: the definition it had from `createdAt` until the next version. Responses record the version they started on (`meta.formVersion`). */
export type FormVersion = {
  __typename?: 'FormVersion';
  createdAt: Scalars['DateTime']['output'];
  /** The version's definition. One request reads at most GRAPHQL_MAX_DEFINITION_BYTES of definitions (16 MiB by default): beyond it, BAD_USER_INPUT, and no definition is read. */
  definition: FormDefinition;
  /** Size of the definition as JSON text, in bytes: what reading `definition` takes from the request's budget of definition bytes. */
  definitionBytes: Scalars['Int']['output'];
  /** From 1, one more with each update. */
  version: Scalars['Int']['output'];
};

/** A page of versions of a form, newest first. */
export type FormVersionConnection = {
  __typename?: 'FormVersionConnection';
  edges: Array<FormVersionEdge>;
  pageInfo: PageInfo;
};

export type FormVersionEdge = {
  __typename?: 'FormVersionEdge';
  cursor: Scalars['String']['output'];
  node: FormVersion;
};

/** The same shape as the body of POST /api/v1/environments/{environmentId}/forms/generate. */
export type GenerateFormInput = {
  /** Whether the final screen offers "Submit another response" (a new response from the same browser). Default false. */
  allowAnotherResponse?: InputMaybe<Scalars['Boolean']['input']>;
  /** Names of values a response may bring (page URL query, JSON API), at most 20. */
  hiddenFields?: InputMaybe<Array<Scalars['String']['input']>>;
  /** A multilingual form: its default language and the others (each a built-in language, at most 20 in all). Its texts may then be given as `{"<locale>": "…"}` objects. Left out: one language, `locale`'s. */
  languages?: InputMaybe<FormLanguagesInput>;
  /** When it takes responses and how many. */
  limits?: InputMaybe<FormLimitsInput>;
  /** The language of the page's own words (buttons, messages, the thank-you and closed screens, `<html lang>`): a BCP 47 tag in en, de, fr, es, it, nl, pt, pl, ja, ar, a region may follow (de-CH). Default en. */
  locale?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['LocalizedText']['input'];
  /** E-mail alerts to the team and a confirmation to the respondent (docs/notifications.md). */
  notifications?: InputMaybe<FormNotificationsInput>;
  /** Up to 20 `{key, condition, limit, action}`: at most `limit` finished responses meeting `condition` (a Condition as JSON); past it `action` ("complete", "invalid" or {goTo: <step key>}) routes the response. */
  quotas?: InputMaybe<Scalars['JSON']['input']>;
  /** A form of the same environment, used as the style template. */
  sourceFormId: Scalars['ID']['input'];
  /** At least 2 steps. */
  steps: Array<StepInput>;
  /** Values the rules calculate (at most 20). */
  variables?: InputMaybe<Array<FormVariableInput>>;
};

export type GenerateFormPayload = {
  __typename?: 'GenerateFormPayload';
  form: Form;
  success: Scalars['Boolean']['output'];
};

/** Answer to GraphicOptions: the picked option. */
export type GraphicOptionsAnswer = {
  __typename?: 'GraphicOptionsAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  index?: Maybe<Scalars['Int']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
  value?: Maybe<Scalars['String']['output']>;
};

/** A heading. */
export type Header = {
  __typename?: 'Header';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  subheading?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** A test on a hidden field's value. */
export type HiddenFieldCondition = {
  __typename?: 'HiddenFieldCondition';
  /** The hidden field name. */
  hidden: Scalars['String']['output'];
  op: ConditionOp;
  value?: Maybe<Scalars['JSON']['output']>;
};

/** A hidden field and the value it must have. */
export type HiddenFieldValueInput = {
  name: Scalars['String']['input'];
  value: Scalars['String']['input'];
};

/** One field of an IdentityInfo component. */
export type IdentityField = {
  __typename?: 'IdentityField';
  blockPersonalEmails?: Maybe<Scalars['Boolean']['output']>;
  defaultDialCodeCountry?: Maybe<Scalars['String']['output']>;
  includeDialCode?: Maybe<Scalars['Boolean']['output']>;
  /** One of the 18 identity keys, e.g. emailAddress. */
  key: Scalars['String']['output'];
  label: Scalars['String']['output'];
  placeholder?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** Key of the field that must be filled first. */
  revealAfter?: Maybe<Scalars['String']['output']>;
};

/** Collects identity fields (name, e-mail, company, …). */
export type IdentityInfo = {
  __typename?: 'IdentityInfo';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  fields: Array<IdentityField>;
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** The identity fields collected; `fullName` is first + last name when not given. */
export type IdentityInfoAnswer = {
  __typename?: 'IdentityInfoAnswer';
  aptSuiteEtc?: Maybe<Scalars['String']['output']>;
  city?: Maybe<Scalars['String']['output']>;
  companyName?: Maybe<Scalars['String']['output']>;
  companyRevenue?: Maybe<Scalars['String']['output']>;
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  emailAddress?: Maybe<Scalars['String']['output']>;
  firstName?: Maybe<Scalars['String']['output']>;
  fullName?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  lastName?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  numberOfEmployees?: Maybe<Scalars['String']['output']>;
  phoneNumber?: Maybe<Scalars['String']['output']>;
  profilePictureUrl?: Maybe<Scalars['String']['output']>;
  state?: Maybe<Scalars['String']['output']>;
  streetAddress?: Maybe<Scalars['String']['output']>;
  title?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
  websiteUrl?: Maybe<Scalars['String']['output']>;
  workEmailAddress?: Maybe<Scalars['String']['output']>;
  zipCode?: Maybe<Scalars['String']['output']>;
};

/** A form stored as given: how template forms get into an environment. */
export type ImportFormInput = {
  environmentId: Scalars['ID']['input'];
  hiddenFields?: InputMaybe<Array<Scalars['String']['input']>>;
  /** As in GenerateFormInput. */
  languages?: InputMaybe<FormLanguagesInput>;
  /** As in GenerateFormInput; default en. */
  locale?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['LocalizedText']['input'];
  /** As in GenerateFormInput; left out: nobody is notified. */
  notifications?: InputMaybe<FormNotificationsInput>;
  /** Defaults to PUBLISHED. */
  status?: InputMaybe<FormStatus>;
  steps: Array<StepInput>;
  /** Fonts, colours, background, layout and component styles (docs/components.md, "Themes and style inheritance"); defaults fill what is left out. */
  theme?: InputMaybe<Scalars['JSON']['input']>;
  variables?: InputMaybe<Array<FormVariableInput>>;
};

/** How a form (or every form of an environment) is doing, from counters kept as views and responses happen. A response counts in the period it started in; deleting responses takes them off. */
export type Insights = {
  __typename?: 'Insights';
  /** finishes / starts; null without starts. */
  completionRate?: Maybe<Scalars['Float']['output']>;
  /** desktop, mobile, tablet. */
  devices: Array<InsightsBreakdownRow>;
  /** Responses completed. */
  finishes: Scalars['Int']['output'];
  groupBy: InsightsGroupBy;
  /** Per hidden field, by name, its 20 most viewed values. */
  hiddenFields: Array<InsightsHiddenField>;
  /** Responses that ended at an invalid step or action. */
  invalid: Scalars['Int']['output'];
  /** The languages respondents saw (the form's locale). */
  languages: Array<InsightsBreakdownRow>;
  /** Referrer hosts, the 20 most viewed. */
  referrers: Array<InsightsBreakdownRow>;
  /** Every period from since (or the first counted) to until (or the last counted). */
  series: Array<InsightsPeriod>;
  /** The range as read: its first instant. */
  since?: Maybe<Scalars['DateTime']['output']>;
  /** starts / views; null without views (above 1 when clients start responses without reporting views). */
  startRate?: Maybe<Scalars['Float']['output']>;
  /** Responses started. */
  starts: Scalars['Int']['output'];
  /** Per step of the form's current version, in order (empty for an environment). */
  steps: Array<InsightsStep>;
  /** null without finishes. */
  timeToComplete?: Maybe<TimeToComplete>;
  timeZone: Scalars['String']['output'];
  /** The instant the range ends (excluded). */
  until?: Maybe<Scalars['DateTime']['output']>;
  /** Views of the first step (page, embed, or reported with POST /s/<id>/views); bots that say so are not counted. */
  views: Scalars['Int']['output'];
};

/** One value of a dimension (a device class, a referrer host, a hidden field's value, a language) and what it counted. */
export type InsightsBreakdownRow = {
  __typename?: 'InsightsBreakdownRow';
  finishes: Scalars['Int']['output'];
  starts: Scalars['Int']['output'];
  /** The value; '' is none (no referrer: typed in, a bookmark, an app). */
  value: Scalars['String']['output'];
  views: Scalars['Int']['output'];
};

/** What insights count: a time range, the time zone and period of the series, and filters on the dimensions. */
export type InsightsFilter = {
  /** Only this device class. */
  device?: InputMaybe<DeviceClass>;
  /** The period of the series; defaults to DAY. */
  groupBy?: InputMaybe<InsightsGroupBy>;
  /** Only views and responses with these hidden-field values (all of them). */
  hidden?: InputMaybe<Array<HiddenFieldValueInput>>;
  /** Only respondents who saw the form in this language (its locale). */
  language?: InputMaybe<Scalars['String']['input']>;
  /** From this date (2026-12-01: its midnight in `timeZone`) or date-time with its offset (2026-12-01T09:30:00Z). */
  since?: InputMaybe<Scalars['String']['input']>;
  /** The IANA time zone of dates and periods (Europe/Berlin); defaults to UTC. */
  timeZone?: InputMaybe<Scalars['String']['input']>;
  /** Before this date or date-time (as `since`). */
  until?: InputMaybe<Scalars['String']['input']>;
};

/** The period of a series: a day, an ISO week (from Monday) or a month, in the time zone. */
export type InsightsGroupBy =
  | 'DAY'
  | 'MONTH'
  | 'WEEK';

/** A hidden field's values (the 20 most viewed). */
export type InsightsHiddenField = {
  __typename?: 'InsightsHiddenField';
  name: Scalars['String']['output'];
  values: Array<InsightsBreakdownRow>;
};

/** Views, starts and finishes of one period (responses count in the period they started in). */
export type InsightsPeriod = {
  __typename?: 'InsightsPeriod';
  finishes: Scalars['Int']['output'];
  /** The period's first day in the time zone (YYYY-MM-DD). */
  period: Scalars['String']['output'];
  starts: Scalars['Int']['output'];
  views: Scalars['Int']['output'];
};

/** One step of the form (its current version) in the funnel. */
export type InsightsStep = {
  __typename?: 'InsightsStep';
  /** leftHere / reached; null when no response reached it. */
  dropOffRate?: Maybe<Scalars['Float']['output']>;
  key: Scalars['String']['output'];
  /** Unfinished, not invalid responses whose next step it is: the step they were looking at when they stopped. */
  leftHere: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** Responses that went through the step or are at it. */
  reached: Scalars['Int']['output'];
};

/** How respondents' IP addresses are stored: FULL as received (the default), TRUNCATED to IPv4 /24 or IPv6 /48, NONE (stored empty). `country` is kept in every mode. */
export type IpStorage =
  | 'FULL'
  | 'NONE'
  | 'TRUNCATED';

/** The last run of a scheduled job (it runs on one node per interval). */
export type JobRun = {
  __typename?: 'JobRun';
  error?: Maybe<Scalars['String']['output']>;
  finishedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Deleted forms removed for good after their grace period. */
  formsPurged: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** The node (host:pid) that ran it. */
  node: Scalars['String']['output'];
  responsesDeleted: Scalars['Int']['output'];
  startedAt: Scalars['DateTime']['output'];
  /** `running`, `succeeded` or `failed`. */
  status: Scalars['String']['output'];
};

/** How many responses were answered in one language of the form (one set of answers: the other counts aggregate across languages). */
export type LanguageCount = {
  __typename?: 'LanguageCount';
  /** Of those, the completed ones. */
  finished: Scalars['Int']['output'];
  /** The language (`meta.language`; the default language for responses without one). */
  language: Scalars['String']['output'];
  /** Responses answered in it. */
  total: Scalars['Int']['output'];
};

/** A respondent, known to one environment: one anonymous visitor across visits, or everyone who answered with the same e-mail. A response's `leadId` names it. */
export type Lead = Node & {
  __typename?: 'Lead';
  /** When the lead first submitted an answer. */
  createdAt: Scalars['DateTime']['output'];
  /** Lower-cased; null while the lead is anonymous. */
  email?: Maybe<Scalars['String']['output']>;
  environmentId: Scalars['ID']['output'];
  /** The object's id: the same as in the REST API; `node(id:)` finds the object by it. */
  id: Scalars['ID']['output'];
  /** @deprecated Use `id`: `node(id:)` and `nodes(ids:)` take it. */
  nodeId: Scalars['ID']['output'];
  /** The lead's responses to any form of its environment, newest first. */
  responses: FormResponseConnection;
  updatedAt: Scalars['DateTime']['output'];
};


/** A respondent, known to one environment: one anonymous visitor across visits, or everyone who answered with the same e-mail. A response's `leadId` names it. */
export type LeadResponsesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A page of leads, newest first (created_at DESC, id DESC). */
export type LeadConnection = {
  __typename?: 'LeadConnection';
  edges: Array<LeadEdge>;
  pageInfo: PageInfo;
};

export type LeadEdge = {
  __typename?: 'LeadEdge';
  cursor: Scalars['String']['output'];
  node: Lead;
};

/** Which leads a listing holds. */
export type LeadFilter = {
  /** Only the lead with this e-mail (compared lower-cased). */
  email?: InputMaybe<Scalars['String']['input']>;
};

/** What a rule does when its condition holds: go to a later step, end the response (complete, invalid), or calculate a variable. */
export type LogicAction = {
  __typename?: 'LogicAction';
  calculate?: Maybe<Calculation>;
  /** Finish the response. */
  complete: Scalars['Boolean']['output'];
  /** The key of the step to go to. */
  goTo?: Maybe<Scalars['String']['output']>;
  /** Mark the response invalid (status 5) and end it. */
  invalid: Scalars['Boolean']['output'];
};

/** One rule: when `condition` holds as the step is submitted, `action` decides what follows. (The input and the REST/public JSON call them `if` and `then`.) */
export type LogicRule = {
  __typename?: 'LogicRule';
  /** The action of the `then` that routes (goTo, complete, invalid); null when the rule only calculates. */
  action?: Maybe<LogicAction>;
  /** Every action of the `then`, in order. */
  actions: Array<LogicAction>;
  /** The `if` of the rule. */
  condition: Condition;
};

export type LogicRuleInput = {
  /** A condition: `{all: [...]}`, `{any: [...]}`, `{not: ...}`, `{question: <component key>, field?, op, value?}` or `{hidden: <name>, op, value?}` (op: a ConditionOp value). */
  if: Scalars['JSON']['input'];
  /** One action or a list of them: `{goTo: <step key>}`, `{complete: true}`, `{invalid: true}`, `{calculate: {variable, op, value}}` (at most one that routes). */
  then: Scalars['JSON']['input'];
};

/** Multi-line text area. */
export type LongInput = {
  __typename?: 'LongInput';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  placeholder?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a LongInput. */
export type LongInputAnswer = {
  __typename?: 'LongInputAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  input?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** Rows answered on one scale of columns: radio buttons, or check boxes when isMulti. */
export type Matrix = {
  __typename?: 'Matrix';
  columns: Array<Scalars['String']['output']>;
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  isMulti?: Maybe<Scalars['Boolean']['output']>;
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  rows: Array<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a Matrix. */
export type MatrixAnswer = {
  __typename?: 'MatrixAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The rows answered, in the form's order of the answer. */
  rows: Array<MatrixRowAnswer>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** One row of a Matrix answer and the column(s) picked. */
export type MatrixRowAnswer = {
  __typename?: 'MatrixRowAnswer';
  /** One column unless the matrix is multi. */
  columns: Array<Scalars['String']['output']>;
  row: Scalars['String']['output'];
};

/** Choices shown as buttons or check boxes. */
export type MultipleOptionsQuestion = {
  __typename?: 'MultipleOptionsQuestion';
  choices: Array<Scalars['String']['output']>;
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  isMulti?: Maybe<Scalars['Boolean']['output']>;
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  subheading?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a MultipleOptionsQuestion. */
export type MultipleOptionsQuestionAnswer = {
  __typename?: 'MultipleOptionsQuestionAnswer';
  choices: Array<ChoiceAnswer>;
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The respondent chose "Other". */
  selectedOther?: Maybe<Scalars['Boolean']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Closes a published form to new responses: its page shows "no longer accepting responses" and public submissions are refused (410). Its responses stay readable; it can still be a template. Closing a closed form changes nothing; a draft cannot be closed (CONFLICT). Needs the API key scope `forms:write`. */
  closeForm: Form;
  /** The admin token, or a key with `keys:manage` in its own environment (granting at most its own scopes and expiry). The key in the payload is shown once. Needs the API key scope `keys:manage`. */
  createApiKey: CreateApiKeyPayload;
  /** Admin token only. Needs the admin token. */
  createEnvironment: Environment;
  /** Makes a link to the form's read-only results page; its URL is shown only in this payload. At most 100 links per form. Needs the API key scope `responses:read`. */
  createShareLink: CreateShareLinkPayload;
  /** Creates an endpoint; the payload carries its signing secret, shown only this once. Needs the API key scope `webhooks:manage`. */
  createWebhookEndpoint: CreateWebhookEndpointPayload;
  /** Soft-deletes a form: it is no longer served and can no longer be a template. Needs the API key scope `forms:write`. */
  deleteForm: DeleteFormPayload;
  /** Deletes one response for good, with its webhook events (pending deliveries included) and files. `Response not found` (NOT_FOUND) when it is not a response of the caller's environment. Needs the API key scope `responses:delete`. */
  deleteResponse: DeleteResponsePayload;
  /** Deletes every response of the environment matching the filter, in batches of a few hundred (each its own short transaction, so submissions continue meanwhile), with their webhook events and files. Needs the API key scope `responses:delete`. */
  deleteResponses: DeleteResponsesPayload;
  /** Deletes an endpoint with its deliveries. Needs the API key scope `webhooks:manage`. */
  deleteWebhookEndpoint: DeletedWebhookEndpoint;
  /** Erases a person: the lead, every response attached to it in every form of the environment, their files and webhook events (pending deliveries included). Give `id`, or `email` (looked up case-insensitively in the environment). Idempotent. Needs the API key scope `responses:delete`. */
  eraseLead: EraseLeadPayload;
  /** Creates a published form from a template form of the same environment, inheriting its theme. Honours an `Idempotency-Key` HTTP header (24 h, per environment): a repeat with the same input returns the same form (response header `Idempotent-Replayed: true`); with another input it is UNPROCESSABLE. Needs the API key scope `forms:write`. */
  generateForm: GenerateFormPayload;
  /** Needs the API key scope `forms:write`. */
  importForm: Form;
  /** Replaces one of a form's other languages' texts with a flat document `{"<stable path>": "text"}` (Form.translation's shape); paths left out become untranslated. A new version like updateForm (`expectedVersion` as there). An unknown path, or placeholders that differ from the default text's, is BAD_USER_INPUT with the path. Needs the API key scope `forms:write`. */
  putFormTranslation: UpdateFormPayload;
  /** Publishes a closed form again. Reopening a published form changes nothing; a draft cannot be reopened (CONFLICT). Needs the API key scope `forms:write`. */
  reopenForm: Form;
  /** Sends a delivery again now, with the same webhook-id, whatever its status (CONFLICT while it is being sent). Needs the API key scope `webhooks:manage`. */
  resendWebhookDelivery: WebhookDelivery;
  /** Sends a FAILED or SUPPRESSED delivery again, with a fresh run of retries; a pending one is returned as it is; a SENT one is CONFLICT. Needs the API key scope `settings:manage`. */
  retryNotificationDelivery: NotificationDelivery;
  /** The admin token, or a key with `keys:manage` for keys of its environment. A revoked key is rejected as invalid from then on, and its open responseEvents streams end, on every node. Needs the API key scope `keys:manage`. */
  revokeApiKey: ApiKey;
  /** Revokes a share link: its page answers 404 from the next request, on every node. Needs the API key scope `responses:read`. */
  revokeShareLink: RevokeShareLinkPayload;
  /** Admin token only: new random signing keys for every node. Cookies, visitor and embed tokens and file URLs signed with the replaced keys stay valid for the grace period, then stop. Needs the admin token. */
  rotateSigningKeys: SigningKeyRotation;
  /** Sets a form's own retention in days (null: its environment's applies). Needs the API key scope `forms:write`. */
  setFormRetention: Form;
  /** Queues a `webhook.test` event for this endpoint only and returns its delivery. Needs the API key scope `webhooks:manage`. */
  testWebhookEndpoint: WebhookDelivery;
  /** Admin token only. Trusts a document on every node: clients may then send its hash instead of its text, also with GRAPHQL_PERSISTED_ONLY. It must be valid against the schema; the hash is of the text exactly as given. Trusting one again changes nothing. Needs the admin token. */
  trustGraphQLDocument: TrustedGraphQlDocument;
  /** Changes an environment's settings: privacy (IP storage, retention), its own captcha keys and who may embed its forms (recorded in the audit log; a secret key only as set or removed). Needs the API key scope `settings:manage`. */
  updateEnvironmentSettings: Environment;
  /** Changes a live form's name, steps or hidden fields: a new version (one more than the current); its id, url, status and theme stay. Responses already started finish on the version they started on; new ones get this one. `expectedVersion` (REST: `If-Match`): when another version is current, nothing changes and the error is PRECONDITION_FAILED. Honours an `Idempotency-Key` HTTP header like generateForm. Recorded in the audit log; sends a `form.updated` webhook event. Needs the API key scope `forms:write`. */
  updateForm: UpdateFormPayload;
  /** Changes an endpoint: URL, event types, forms, description, enabled. Needs the API key scope `webhooks:manage`. */
  updateWebhookEndpoint: WebhookEndpoint;
};


export type MutationCloseFormArgs = {
  id: Scalars['ID']['input'];
};


export type MutationCreateApiKeyArgs = {
  input: CreateApiKeyInput;
};


export type MutationCreateEnvironmentArgs = {
  input: CreateEnvironmentInput;
};


export type MutationCreateShareLinkArgs = {
  formId: Scalars['ID']['input'];
  input?: InputMaybe<CreateShareLinkInput>;
};


export type MutationCreateWebhookEndpointArgs = {
  input: CreateWebhookEndpointInput;
};


export type MutationDeleteFormArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteResponseArgs = {
  id: Scalars['ID']['input'];
};


export type MutationDeleteResponsesArgs = {
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter: DeleteResponsesFilter;
};


export type MutationDeleteWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};


export type MutationEraseLeadArgs = {
  email?: InputMaybe<Scalars['String']['input']>;
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  id?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationGenerateFormArgs = {
  environmentId: Scalars['ID']['input'];
  input: GenerateFormInput;
};


export type MutationImportFormArgs = {
  input: ImportFormInput;
};


export type MutationPutFormTranslationArgs = {
  expectedVersion?: InputMaybe<Scalars['Int']['input']>;
  id: Scalars['ID']['input'];
  locale: Scalars['String']['input'];
  texts: Scalars['JSON']['input'];
};


export type MutationReopenFormArgs = {
  id: Scalars['ID']['input'];
};


export type MutationResendWebhookDeliveryArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRetryNotificationDeliveryArgs = {
  formId?: InputMaybe<Scalars['ID']['input']>;
  id: Scalars['ID']['input'];
};


export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRevokeShareLinkArgs = {
  formId: Scalars['ID']['input'];
  id: Scalars['ID']['input'];
};


export type MutationSetFormRetentionArgs = {
  formId: Scalars['ID']['input'];
  retentionDays?: InputMaybe<Scalars['Int']['input']>;
};


export type MutationTestWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};


export type MutationTrustGraphQlDocumentArgs = {
  document: Scalars['String']['input'];
};


export type MutationUpdateEnvironmentSettingsArgs = {
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  input: EnvironmentSettingsInput;
};


export type MutationUpdateFormArgs = {
  expectedVersion?: InputMaybe<Scalars['Int']['input']>;
  id: Scalars['ID']['input'];
  input: UpdateFormInput;
};


export type MutationUpdateWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
  input: UpdateWebhookEndpointInput;
};

/** How likely, from 0 to 10, a respondent is to recommend something (Net Promoter Score). */
export type Nps = {
  __typename?: 'NPS';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  highLabel?: Maybe<Scalars['String']['output']>;
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  lowLabel?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to an NPS question. */
export type NpsAnswer = {
  __typename?: 'NPSAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The value chosen (stored as `value`). */
  score?: Maybe<Scalars['Int']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** Next and back buttons. */
export type NextBackButtons = {
  __typename?: 'NextBackButtons';
  backLabel?: Maybe<Scalars['String']['output']>;
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  nextLabel?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** The button to the next step. */
export type NextButton = {
  __typename?: 'NextButton';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  label?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** An object `node(id:)` and `nodes(ids:)` find again by its `id`. */
export type Node = {
  /** The object's id: the same as in the REST API; `node(id:)` finds the object by it. */
  id: Scalars['ID']['output'];
};

/** Holds when its condition does not. */
export type NotCondition = {
  __typename?: 'NotCondition';
  not: Condition;
};

/** One e-mail to one address about one response. */
export type NotificationDelivery = {
  __typename?: 'NotificationDelivery';
  attempts: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  formId: Scalars['ID']['output'];
  id: Scalars['ID']['output'];
  kind: NotificationKind;
  /** The SMTP server's last reply, or the connection error. */
  lastReply?: Maybe<Scalars['String']['output']>;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt?: Maybe<Scalars['DateTime']['output']>;
  /** The address, masked (`a***@example.com`). */
  recipient: Scalars['String']['output'];
  responseId: Scalars['ID']['output'];
  sentAt?: Maybe<Scalars['DateTime']['output']>;
  status: NotificationDeliveryStatus;
  /** The event it was sent on: response.finished or response.invalid. */
  trigger: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
};

/** A page of a form's e-mail deliveries, newest first. */
export type NotificationDeliveryConnection = {
  __typename?: 'NotificationDeliveryConnection';
  edges: Array<NotificationDeliveryEdge>;
  pageInfo: PageInfo;
};

export type NotificationDeliveryEdge = {
  __typename?: 'NotificationDeliveryEdge';
  cursor: Scalars['String']['output'];
  node: NotificationDelivery;
};

/** `PENDING` (due, or waiting for a retry), `SENDING` (a node is sending it), `SENT` (the SMTP server took it), `FAILED` (a 5xx reply, or no retries left), `SUPPRESSED` (a confirmation limit kept it back), `WAITING_FOR_SMTP` (pending, and no SMTP server is configured). */
export type NotificationDeliveryStatus =
  | 'FAILED'
  | 'PENDING'
  | 'SENDING'
  | 'SENT'
  | 'SUPPRESSED'
  | 'WAITING_FOR_SMTP';

/** `TEAM`: an alert to the team; `RESPONDENT`: a confirmation to the respondent. */
export type NotificationKind =
  | 'RESPONDENT'
  | 'TEAM';

/** Answer to a Number question. */
export type NumberAnswer = {
  __typename?: 'NumberAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The number answered (stored as `value`). */
  number?: Maybe<Scalars['Float']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A number (type "Number"): an amount, a count or a measure, within min…max with at most `decimals` places. */
export type NumberQuestion = {
  __typename?: 'NumberQuestion';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Decimal places an answer may have (0–6). */
  decimals: Scalars['Int']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  max?: Maybe<Scalars['Float']['output']>;
  min?: Maybe<Scalars['Float']['output']>;
  placeholder?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
  unit?: Maybe<Scalars['String']['output']>;
};

/** The numbers a question was answered with (Rating, NPS, OpinionScale, Number). */
export type NumberStatistics = {
  __typename?: 'NumberStatistics';
  /** Answers holding a number. */
  count: Scalars['Int']['output'];
  max?: Maybe<Scalars['Float']['output']>;
  /** Null without answers. */
  mean?: Maybe<Scalars['Float']['output']>;
  /** The middle answer (the mean of the two middle ones for an even count); null without answers. */
  median?: Maybe<Scalars['Float']['output']>;
  min?: Maybe<Scalars['Float']['output']>;
};

/** Numbered buttons from `from` to `to`, labelled at the ends and the middle. */
export type OpinionScale = {
  __typename?: 'OpinionScale';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** The lowest value (0 or 1). */
  from: Scalars['Int']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  labels?: Maybe<OpinionScaleLabels>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The highest value (2–10). */
  to: Scalars['Int']['output'];
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to an OpinionScale. */
export type OpinionScaleAnswer = {
  __typename?: 'OpinionScaleAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The value chosen (stored as `value`). */
  score?: Maybe<Scalars['Int']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** The words under the left end, the middle and the right end of an OpinionScale. */
export type OpinionScaleLabels = {
  __typename?: 'OpinionScaleLabels';
  center?: Maybe<Scalars['String']['output']>;
  left?: Maybe<Scalars['String']['output']>;
  right?: Maybe<Scalars['String']['output']>;
};

/** How often one option was chosen. */
export type OptionCount = {
  __typename?: 'OptionCount';
  count: Scalars['Int']['output'];
  /** The option (a Disclaimer has "checked" and "unchecked"). */
  option: Scalars['String']['output'];
};

/** Answer to any other component type; read the raw `response`. */
export type OtherAnswer = {
  __typename?: 'OtherAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** Any other catalogued type (EmailForm, FileUploader, GraphicOptions, PasswordInput, …); read its `content`. */
export type OtherComponent = {
  __typename?: 'OtherComponent';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** Answer to PasswordInput / PasswordCreatorInput: stored hashed, nothing readable. */
export type PasswordInputAnswer = {
  __typename?: 'PasswordInputAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** Attributes of the submitter. */
export type PersonAttributes = {
  __typename?: 'PersonAttributes';
  /** Times this lead has completed the form. */
  completedForm: Scalars['Int']['output'];
  /** Country code; empty when unknown. */
  country: Scalars['String']['output'];
  ip: Scalars['String']['output'];
  /** Times this lead has visited the form. */
  visitedForm: Scalars['Int']['output'];
};

/** An NPS question: promoters (9–10), passives (7–8), detractors (0–6) and the score. */
export type PromoterScore = {
  __typename?: 'PromoterScore';
  detractors: Scalars['Int']['output'];
  passives: Scalars['Int']['output'];
  promoters: Scalars['Int']['output'];
  /** % promoters − % detractors, from −100 to 100; null without answers. */
  score?: Maybe<Scalars['Float']['output']>;
};

export type Query = {
  __typename?: 'Query';
  /** An environment's audit log, newest first. Needs the API key scope `audit:read`. */
  auditLog: AuditLogConnection;
  /** An environment; the admin token reaches all, an API key only its own. */
  environment: Environment;
  /** Responses of every form of the environment, newest first. Needs the API key scope `responses:read`. */
  environmentResponses: FormResponseConnection;
  /** A live form of the caller's environment; null when there is none (or it is another environment's). Needs the API key scope `forms:read`. */
  form?: Maybe<Form>;
  /** The form's e-mail deliveries, newest first: one per recipient address (docs/notifications.md). `Form not found` (NOT_FOUND) when it is not a live form of the caller's environment. Needs the API key scope `responses:read`. */
  formNotificationDeliveries: NotificationDeliveryConnection;
  /** Responses of one form of the environment, newest first. `Form not found` (NOT_FOUND) when the form is not a live form of the caller's environment. Needs the API key scope `responses:read`. */
  formResponses: FormResponseConnection;
  /** Any object implementing Node, by its `id`; null when the id names no object the caller may see. */
  node?: Maybe<Node>;
  /** Objects by their ids, in order; null for each id that names no object the caller may see. At most 100 ids. */
  nodes: Array<Maybe<Node>>;
  /** Admin token only: the last run of the retention job (across all environments); null before the first. Needs the admin token. */
  retentionStatus?: Maybe<JobRun>;
  /** A form's links to its results page, oldest first (expired ones included until revoked). Needs the API key scope `responses:read`. */
  shareLinks: Array<ShareLink>;
  /** Admin token only. Every trusted document: the built-in ones, then those trusted with trustGraphQLDocument, oldest first. Needs the admin token. */
  trustedGraphQLDocuments: Array<TrustedGraphQlDocument>;
  /** Who is calling: the API key and its environment (or the admin token). UNAUTHENTICATED without credentials. */
  viewer: Viewer;
  /** One webhook endpoint of the environment. Needs the API key scope `webhooks:manage`. */
  webhookEndpoint: WebhookEndpoint;
  /** The environment's webhook endpoints, oldest first. Needs the API key scope `webhooks:manage`. */
  webhookEndpoints: Array<WebhookEndpoint>;
};


export type QueryAuditLogArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryEnvironmentArgs = {
  id: Scalars['ID']['input'];
};


export type QueryEnvironmentResponsesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryFormArgs = {
  id: Scalars['ID']['input'];
};


export type QueryFormNotificationDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  formId: Scalars['ID']['input'];
};


export type QueryFormResponsesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  formId: Scalars['ID']['input'];
};


export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


export type QueryShareLinksArgs = {
  formId: Scalars['ID']['input'];
};


export type QueryWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWebhookEndpointsArgs = {
  environmentId?: InputMaybe<Scalars['ID']['input']>;
};

/** A test on one component's answer. */
export type QuestionCondition = {
  __typename?: 'QuestionCondition';
  /** The IdentityInfo field tested (e.g. numberOfEmployees); null: the whole answer. */
  field?: Maybe<Scalars['String']['output']>;
  op: ConditionOp;
  /** The component's key. */
  question: Scalars['String']['output'];
  /** What the answer is compared with: a text, a number, true/false, or a list (in, notIn). */
  value?: Maybe<Scalars['JSON']['output']>;
};

/** One answer of a response. */
export type QuestionResponse = {
  __typename?: 'QuestionResponse';
  /** The same answer, typed. */
  answer: Answer;
  /** The component's key, when it has one. */
  key?: Maybe<Scalars['String']['output']>;
  /** The id of the form component answered. */
  questionId: Scalars['ID']['output'];
  /** The answer exactly as stored (what the REST API returns). */
  response: Scalars['JSON']['output'];
};

/** Answers to one question of the form. */
export type QuestionSummary = {
  __typename?: 'QuestionSummary';
  /** Responses that answered it. */
  answers: Scalars['Int']['output'];
  /** Date: the earliest and latest answers; null for other types. */
  dates?: Maybe<DateRange>;
  /** The question text, if it has one. */
  headline?: Maybe<Scalars['String']['output']>;
  /** Numeric types (Rating, NPS, OpinionScale, Number): count, mean, median, min, max; null for other types. */
  numbers?: Maybe<NumberStatistics>;
  /** Choice types (Dropdown, MultipleOptionsQuestion, GraphicOptions, Disclaimer): every option with how often it was chosen, in the form's order (options since removed from the form last); scales (Rating, NPS, OpinionScale): every value of the scale with its count; Date: the count per month (YYYY-MM, in order); null for other types. */
  options?: Maybe<Array<OptionCount>>;
  /** NPS: promoters, passives, detractors and the score; null for other types. */
  promoterScore?: Maybe<PromoterScore>;
  questionId: Scalars['ID']['output'];
  /** Matrix: per row, the count per column; Ranking: per option, the count per position and the mean position; null for other types (then `options` is null too). */
  rows?: Maybe<Array<RowSummary>>;
  stepId: Scalars['ID']['output'];
  /** The component type. */
  type: Scalars['String']['output'];
};

/** At most `limit` finished responses meeting `condition`; past it a response is routed by `action`. */
export type Quota = {
  __typename?: 'Quota';
  /** "complete", "invalid" or {goTo: <step key>}. */
  action: Scalars['JSON']['output'];
  condition: Condition;
  /** Finished responses counted toward it so far. */
  count: Scalars['Int']['output'];
  /** The quota as `quotas` takes it back: `{key, condition, limit, action}`. */
  json: Scalars['JSON']['output'];
  key: Scalars['String']['output'];
  limit: Scalars['Int']['output'];
};

/** Options put in order by the respondent. */
export type Ranking = {
  __typename?: 'Ranking';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  options: Array<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a Ranking. */
export type RankingAnswer = {
  __typename?: 'RankingAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** Every option, first ranked first. */
  ranking: Array<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A rating from 1 to `scale`, as stars or numbers. */
export type Rating = {
  __typename?: 'Rating';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  highLabel?: Maybe<Scalars['String']['output']>;
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  lowLabel?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The highest value (3–10). */
  scale: Scalars['Int']['output'];
  /** "star" or "number". */
  shape: Scalars['String']['output'];
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a Rating. */
export type RatingAnswer = {
  __typename?: 'RatingAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The value chosen (stored as `value`). */
  score?: Maybe<Scalars['Int']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A confirmation e-mail to the respondent. */
export type RespondentNotification = {
  __typename?: 'RespondentNotification';
  body: Scalars['String']['output'];
  emailFrom: Scalars['String']['output'];
  enabled: Scalars['Boolean']['output'];
  includeAnswers: Scalars['Boolean']['output'];
  subject: Scalars['String']['output'];
};

/** A confirmation e-mail to the respondent, sent once the response finishes. */
export type RespondentNotificationInput = {
  /** The text of the message (plain text; paragraphs separated by blank lines). */
  body?: InputMaybe<Scalars['String']['input']>;
  /** Where the address comes from: an EmailForm's key, or an IdentityInfo's key and `.emailAddress` or `.workEmailAddress`. */
  emailFrom: Scalars['String']['input'];
  /** Default true. */
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Put the answers below the text. Default false. */
  includeAnswers?: InputMaybe<Scalars['Boolean']['input']>;
  subject: Scalars['String']['input'];
};

/** The timestamp `since` and `until` filter on. */
export type ResponseDateField =
  | 'CREATED_AT'
  | 'UPDATED_AT';

/** A response event, as webhooks receive it: `data` is the response object of `GET /api/v1/responses`. */
export type ResponseEvent = {
  __typename?: 'ResponseEvent';
  data: Scalars['JSON']['output'];
  formId?: Maybe<Scalars['ID']['output']>;
  /** The event id (the same event on every node and every subscriber). */
  id: Scalars['ID']['output'];
  timestamp: Scalars['DateTime']['output'];
  /** `response.created`, `response.updated` or `response.finished`. */
  type: Scalars['String']['output'];
};

/** Filters of both response listings (the same as the REST query parameters). */
export type ResponseFilter = {
  /** Defaults to CREATED_AT. */
  dateField?: InputMaybe<ResponseDateField>;
  /** Only the responses answered in this language (`meta.language`; a response without one counts as its form's default language's): a built-in language, a region read as its language (`de-CH`). */
  language?: InputMaybe<Scalars['String']['input']>;
  /** Include unfinished (partial) responses. */
  returnPartials?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only responses whose `dateField` is at or after this instant. */
  since?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only responses whose `dateField` is before this instant. */
  until?: InputMaybe<Scalars['DateTime']['input']>;
};

/** A form variable of a response: `number` for a number variable, `text` for a text variable. */
export type ResponseVariable = {
  __typename?: 'ResponseVariable';
  name: Scalars['String']['output'];
  number?: Maybe<Scalars['Float']['output']>;
  text?: Maybe<Scalars['String']['output']>;
};

export type RevokeShareLinkPayload = {
  __typename?: 'RevokeShareLinkPayload';
  formId: Scalars['ID']['output'];
  id: Scalars['ID']['output'];
  revoked: Scalars['Boolean']['output'];
};

/** One part of a question: a Matrix row and the count of each column, or a Ranking option and the count of each position. */
export type RowSummary = {
  __typename?: 'RowSummary';
  /** Ranking: the mean position (1 is first); null for a Matrix and without answers. */
  mean?: Maybe<Scalars['Float']['output']>;
  /** Matrix: every column with its count; Ranking: every position ("1" first) with its count. */
  options: Array<OptionCount>;
  /** The Matrix row, or the Ranking option. */
  row: Scalars['String']['output'];
};

/** An embedded scheduling page (`Scheduler` and every `<Provider>Screen` type). */
export type Scheduler = {
  __typename?: 'Scheduler';
  calendarType?: Maybe<CalendarProvider>;
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  dataUrl: Scalars['String']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  message?: Maybe<Scalars['String']['output']>;
  prefillEmail?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a scheduler (`Scheduler`, `<Provider>Screen`, `DynamicScheduler`). */
export type SchedulerAnswer = {
  __typename?: 'SchedulerAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  eventScheduled?: Maybe<Scalars['Boolean']['output']>;
  guestEmails: Array<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** ISO 8601. */
  meetingEndTime?: Maybe<Scalars['String']['output']>;
  /** ISO 8601. */
  meetingTime?: Maybe<Scalars['String']['output']>;
  ownerEmails: Array<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
  /** The provider's URI of the booked event. */
  uri?: Maybe<Scalars['String']['output']>;
};

/** What an API key may do. The same scopes REST and the CLI name in lower case with a colon: `RESPONSES_READ` is `responses:read`. */
export type Scope =
  /** `audit:read`: Read the environment's audit log. */
  | 'AUDIT_READ'
  /** `forms:read`: Read forms: listings, definitions, versions, lineage. */
  | 'FORMS_READ'
  /** `forms:write`: Generate, import, update, close, reopen and delete forms, and set their retention. */
  | 'FORMS_WRITE'
  /** `keys:manage`: List the environment's API keys, create keys (with at most the creator's scopes and forms) and revoke them. */
  | 'KEYS_MANAGE'
  /** `responses:delete`: Delete responses (one, or by filter) and erase people. */
  | 'RESPONSES_DELETE'
  /** `responses:read`: Read responses and leads: listings, exports, summaries, the live feed, uploaded files. */
  | 'RESPONSES_READ'
  /** `settings:manage`: Read and change the environment's settings: privacy, captcha keys, embedding. */
  | 'SETTINGS_MANAGE'
  /** `webhooks:manage`: Read, create, change, test and delete webhook endpoints and their deliveries. */
  | 'WEBHOOKS_MANAGE';

/** A link to the form's read-only results page (`/r/<token>`): funnel, drop-off, responses over time and every question's summary. The token is shown only when the link is made. */
export type ShareLink = {
  __typename?: 'ShareLink';
  createdAt: Scalars['DateTime']['output'];
  /** null: until revoked. */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  formId: Scalars['ID']['output'];
  id: Scalars['ID']['output'];
  /** Whether the page lists free-text answers (ShortInput, LongInput). Never identity fields, e-mail, files or passwords. */
  includeTextAnswers: Scalars['Boolean']['output'];
};

/** Single-line text input. */
export type ShortInput = {
  __typename?: 'ShortInput';
  /** The stored content, aliases normalised. */
  content: Scalars['JSON']['output'];
  /** Stable id; the questionId of answers to this component. */
  id: Scalars['ID']['output'];
  /** The name conditions use (unique in the form); null when it has none. */
  key?: Maybe<Scalars['String']['output']>;
  placeholder?: Maybe<Scalars['String']['output']>;
  question?: Maybe<Scalars['String']['output']>;
  required?: Maybe<Scalars['Boolean']['output']>;
  /** The stored component type, e.g. "CalendlyScreen". */
  type: Scalars['String']['output'];
};

/** Answer to a ShortInput. */
export type ShortInputAnswer = {
  __typename?: 'ShortInputAnswer';
  componentShapeVersion?: Maybe<Scalars['String']['output']>;
  /** The question text. */
  headline?: Maybe<Scalars['String']['output']>;
  input?: Maybe<Scalars['String']['output']>;
  /** The lead attribute this answer sets, if any. */
  leadAttribute?: Maybe<Scalars['String']['output']>;
  /** The component type answered, e.g. "Dropdown". */
  type: Scalars['String']['output'];
};

/** A rotation of the signing keys (respondents' cookies and tokens, signed file URLs). */
export type SigningKeyRotation = {
  __typename?: 'SigningKeyRotation';
  /** Until when what the replaced keys signed is still accepted (SIGNING_KEY_GRACE_HOURS after the rotation). */
  previousKeysAcceptedUntil: Scalars['DateTime']['output'];
  rotatedAt: Scalars['DateTime']['output'];
};

/** An environment's own SMTP server for e-mail notifications. The password is write-only: only whether one is set is shown. */
export type SmtpSettings = {
  __typename?: 'SmtpSettings';
  /** The sender; null: the server's MAIL_FROM. */
  from?: Maybe<Scalars['String']['output']>;
  /** Whether a password is set (it is never returned). */
  passwordSet: Scalars['Boolean']['output'];
  /** smtp://user@host:587 (STARTTLS, required) or smtps://user@host:465, without the password; null: the server's SMTP_URL applies. */
  url?: Maybe<Scalars['String']['output']>;
};

/** An environment's own SMTP server and sender. A field left out stays as it is; null removes it (url: null removes the password too, and the server's SMTP_URL applies again). */
export type SmtpSettingsInput = {
  /** The sender: an address, or "Name <address>". */
  from?: InputMaybe<Scalars['String']['input']>;
  /** The SMTP password: write-only (never returned, logged or audited), stored encrypted. */
  password?: InputMaybe<Scalars['String']['input']>;
  /** smtp://user@host:587 or smtps://user@host:465, without the password. */
  url?: InputMaybe<Scalars['String']['input']>;
};

/** One page of a form. */
export type Step = {
  __typename?: 'Step';
  /** Reaching it finishes the response; it is the final screen. */
  completion: Scalars['Boolean']['output'];
  components: Array<Component>;
  id: Scalars['ID']['output'];
  /** Reaching it marks the response invalid (status 5) and ends it; it is the final screen. */
  invalid: Scalars['Boolean']['output'];
  /** Unique in the form: its own, or the default `step_<n>` (1-based position). What logic and `meta.path` name. */
  key: Scalars['String']['output'];
  /** Its rules; null: the following step comes next. */
  logic?: Maybe<StepLogic>;
  name: Scalars['String']['output'];
};

export type StepInput = {
  /** Reaching this step finishes the response (no questions on it). */
  completion?: InputMaybe<Scalars['Boolean']['input']>;
  components: Array<ComponentInput>;
  /** updateForm only: the id of a step of this form (in any version) to keep, so its answers keep their questionId. Left out: a new id. generateForm and importForm ignore it. */
  id?: InputMaybe<Scalars['ID']['input']>;
  /** Reaching this step marks the response invalid and ends it (no questions on it). */
  invalid?: InputMaybe<Scalars['Boolean']['input']>;
  /** Unique in the form; default `step_<n>` (its 1-based position). */
  key?: InputMaybe<Scalars['String']['input']>;
  logic?: InputMaybe<StepLogicInput>;
  name: Scalars['LocalizedText']['input'];
};

/** Where the respondent goes after a step: the first rule that holds, else `next` (else the following step). */
export type StepLogic = {
  __typename?: 'StepLogic';
  /** The key of the step that follows when no rule holds; null: the following step. */
  next?: Maybe<Scalars['String']['output']>;
  rules: Array<LogicRule>;
};

/** Rules evaluated in order when the step is submitted (at most 20); `next`: the step when none holds. */
export type StepLogicInput = {
  next?: InputMaybe<Scalars['String']['input']>;
  rules?: InputMaybe<Array<LogicRuleInput>>;
};

/** How many responses reached a step: went through it on their path (`meta.path`). A response stored before paths were recorded: answered a question on it or on a later step, or finished the form. */
export type StepReach = {
  __typename?: 'StepReach';
  /** Position of the step, from 0. */
  index: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  reached: Scalars['Int']['output'];
  stepId: Scalars['ID']['output'];
};

/** Live feeds, over server-sent events (`Accept: text/event-stream`). */
export type Subscription = {
  __typename?: 'Subscription';
  /** The environment's response events from now on (of one form with formId), whichever node the change happened on. A client that falls behind by SUBSCRIPTION_BUFFER events is cut off with an error; a stream ends with an UNAUTHENTICATED error as soon as its API key is revoked or expires, and is completed by the server after SUBSCRIPTION_MAX_LIFETIME (subscribe again). An API key may hold SUBSCRIPTION_MAX_PER_KEY streams at once; the next is refused with 429 and Retry-After. Needs the API key scope `responses:read`. */
  responseEvents: ResponseEvent;
};


/** Live feeds, over server-sent events (`Accept: text/event-stream`). */
export type SubscriptionResponseEventsArgs = {
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  formId?: InputMaybe<Scalars['ID']['input']>;
};

/** Which responses a summary counts (all of them by default, finished or not). */
export type SummaryFilter = {
  /** Defaults to CREATED_AT. */
  dateField?: InputMaybe<ResponseDateField>;
  /** Only the responses answered in this language (`meta.language`; a response without one counts as the form's default language's): a built-in language, a region read as its language (`de-CH`). */
  language?: InputMaybe<Scalars['String']['input']>;
  /** Only responses whose `dateField` is at or after this instant. */
  since?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only responses whose `dateField` is before this instant. */
  until?: InputMaybe<Scalars['DateTime']['input']>;
  /** Only the responses that answered this version of the form (`meta.formVersion`); steps and questions are then that version's. */
  version?: InputMaybe<Scalars['Int']['input']>;
};

/** An e-mail alert to the team. */
export type TeamNotification = {
  __typename?: 'TeamNotification';
  includeAnswers: Scalars['Boolean']['output'];
  on: Array<Scalars['String']['output']>;
  subject?: Maybe<Scalars['String']['output']>;
  to: Array<Scalars['String']['output']>;
};

/** An e-mail alert to the team about a response. */
export type TeamNotificationInput = {
  /** Put the answers in the message (files as signed links, passwords never). Default false. */
  includeAnswers?: InputMaybe<Scalars['Boolean']['input']>;
  /** The events it is sent on: response.finished, response.invalid. Default: response.finished. */
  on?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The subject line; default: the form's name after a fixed prefix in the form's language. */
  subject?: InputMaybe<Scalars['String']['input']>;
  /** 1 to 10 addresses; each gets its own message. */
  to: Array<Scalars['String']['input']>;
};

/** Fonts, colours, background, layout and per-component styles of a form. */
export type Theme = {
  __typename?: 'Theme';
  background: ThemeBackground;
  colors: ThemeColors;
  componentStyles: Array<ComponentStyle>;
  fonts: ThemeFonts;
  layout: ThemeLayout;
};

/** A plain colour, a gradient (from, to, angle) or an image (url, overlay). */
export type ThemeBackground = {
  __typename?: 'ThemeBackground';
  angle?: Maybe<Scalars['Int']['output']>;
  color?: Maybe<Scalars['String']['output']>;
  from?: Maybe<Scalars['String']['output']>;
  overlay?: Maybe<Scalars['String']['output']>;
  to?: Maybe<Scalars['String']['output']>;
  type: Scalars['String']['output'];
  url?: Maybe<Scalars['String']['output']>;
};

export type ThemeColors = {
  __typename?: 'ThemeColors';
  background: Scalars['String']['output'];
  buttonText: Scalars['String']['output'];
  primary: Scalars['String']['output'];
  text: Scalars['String']['output'];
};

export type ThemeFonts = {
  __typename?: 'ThemeFonts';
  body: Scalars['String']['output'];
  heading: Scalars['String']['output'];
};

export type ThemeLayout = {
  __typename?: 'ThemeLayout';
  align: Scalars['String']['output'];
  logoUrl?: Maybe<Scalars['String']['output']>;
  showProgressBar: Scalars['Boolean']['output'];
  width: Scalars['String']['output'];
};

/** Seconds from start to finish of the completed responses (whole seconds; three significant digits from 1,000 s). */
export type TimeToComplete = {
  __typename?: 'TimeToComplete';
  median: Scalars['Int']['output'];
  /** The 90th percentile: 9 in 10 finished within it. */
  p90: Scalars['Int']['output'];
};

/** A document /graphql runs by hash (`extensions.persistedQuery.sha256Hash`), also with GRAPHQL_PERSISTED_ONLY. */
export type TrustedGraphQlDocument = {
  __typename?: 'TrustedGraphQLDocument';
  /** One of the operations in schema/operations/ (trusted by every server of this version). */
  builtIn: Scalars['Boolean']['output'];
  /** When an operator trusted it; null for a built-in one. */
  createdAt?: Maybe<Scalars['DateTime']['output']>;
  /** The SHA-256 of the document text, lowercase hex: what a client sends instead of the text. */
  hash: Scalars['String']['output'];
  /** The names of its operations. */
  operationNames: Array<Scalars['String']['output']>;
};

/** Any of the definition fields of GenerateFormInput, checked as generate checks them; those left out stay. The same shape as the body of PATCH /api/v1/forms/{formId}. */
export type UpdateFormInput = {
  /** As in GenerateFormInput; null: false. */
  allowAnotherResponse?: InputMaybe<Scalars['Boolean']['input']>;
  /** The whole new list of hidden fields. */
  hiddenFields?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The whole new languages; null: one language. A language dropped takes its translations with it; a new default language takes name and steps written in it. */
  languages?: InputMaybe<FormLanguagesInput>;
  /** The whole new limits; null: none. */
  limits?: InputMaybe<FormLimitsInput>;
  /** As in GenerateFormInput; null: en. */
  locale?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['LocalizedText']['input']>;
  /** The whole new notifications; null: nobody is notified. */
  notifications?: InputMaybe<FormNotificationsInput>;
  /** The whole new list of quotas; null: none. Up to 20 `{key, condition, limit, action}`: at most `limit` finished responses meeting `condition` (a Condition as JSON); past it `action` ("complete", "invalid" or {goTo: <step key>}) routes the response. */
  quotas?: InputMaybe<Scalars['JSON']['input']>;
  /** The whole new list of steps (at least 2). A step or component with an `id` keeps it; its translations of texts that did not change stay. */
  steps?: InputMaybe<Array<StepInput>>;
  /** The whole new list of variables. */
  variables?: InputMaybe<Array<FormVariableInput>>;
};

export type UpdateFormPayload = {
  __typename?: 'UpdateFormPayload';
  form: Form;
  success: Scalars['Boolean']['output'];
  /** The version this update made (a replayed update's, even when newer versions followed). */
  version: Scalars['Int']['output'];
};

export type UpdateWebhookEndpointInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  /** true re-enables an endpoint (also one disabled for failing) and clears its failure count. */
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  /** Event types: `response.created`, `response.updated`, `response.finished`, `form.generated`, `form.updated`. */
  eventTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** null: every form. */
  formIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** `standard` (the event as JSON, the default) or `slack` (`{text, blocks}` that Slack and Mattermost incoming webhooks show; still signed). */
  format?: InputMaybe<Scalars['String']['input']>;
  /** `slack` only: put the response's answers in the message (passwords never). Default false. */
  includeAnswers?: InputMaybe<Scalars['Boolean']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
};

/** A test on a form variable's value as the rules before it left it. */
export type VariableCondition = {
  __typename?: 'VariableCondition';
  op: ConditionOp;
  value?: Maybe<Scalars['JSON']['output']>;
  /** The variable name. */
  variable: Scalars['String']['output'];
};

/** A number variable over the finished responses that recorded it. */
export type VariableSummary = {
  __typename?: 'VariableSummary';
  count: Scalars['Int']['output'];
  max?: Maybe<Scalars['Float']['output']>;
  mean?: Maybe<Scalars['Float']['output']>;
  min?: Maybe<Scalars['Float']['output']>;
  name: Scalars['String']['output'];
};

/** How many responses answered one version of the form. */
export type VersionCount = {
  __typename?: 'VersionCount';
  /** Of those, the completed ones. */
  finished: Scalars['Int']['output'];
  /** Responses started on it. */
  total: Scalars['Int']['output'];
  /** The version the responses started on (`meta.formVersion`). */
  version: Scalars['Int']['output'];
};

/** The caller: where exploring the graph starts. */
export type Viewer = {
  __typename?: 'Viewer';
  /** The key's public metadata; null for the admin token. */
  apiKey?: Maybe<ApiKey>;
  /** The API key's environment; null for the admin token (use `environment(id:)`). */
  environment?: Maybe<Environment>;
  /** When the caller's API key expires; null when it does not (and for the admin token). */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** The forms the caller's API key is limited to; null: every form of its environment (and for the admin token). */
  formIds?: Maybe<Array<Scalars['ID']['output']>>;
  kind: ViewerKind;
  /** What the caller may do: its API key's scopes (every scope for a key made without scopes, and for the admin token; a key limited to forms holds no environment-wide scope, settings:manage or audit:read). */
  scopes: Array<Scope>;
};

/** How the caller authenticated. */
export type ViewerKind =
  /** The admin token: every environment. */
  | 'ADMIN'
  /** An environment's API key: that environment only. */
  | 'API_KEY';

/** One HTTP attempt of a delivery. */
export type WebhookAttempt = {
  __typename?: 'WebhookAttempt';
  /** 1 for the first attempt. */
  attempt: Scalars['Int']['output'];
  /** From sending to the end of the answer (or the error). */
  durationMs: Scalars['Int']['output'];
  /** Why the attempt failed (HTTP status, timeout, connection error); null on success. */
  error?: Maybe<Scalars['String']['output']>;
  startedAt: Scalars['DateTime']['output'];
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode?: Maybe<Scalars['Int']['output']>;
  succeeded: Scalars['Boolean']['output'];
};

/** One event for one endpoint. Its id is the `webhook-id` header, the same on every attempt and re-send. */
export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  /** Attempts made so far. */
  attemptCount: Scalars['Int']['output'];
  /** Every attempt, oldest first. */
  attempts: Array<WebhookAttempt>;
  createdAt: Scalars['DateTime']['output'];
  endpointId: Scalars['ID']['output'];
  eventId: Scalars['ID']['output'];
  /** One of the WebhookEventType wire names, or `webhook.test`. */
  eventType: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  lastError?: Maybe<Scalars['String']['output']>;
  lastStatusCode?: Maybe<Scalars['Int']['output']>;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt?: Maybe<Scalars['DateTime']['output']>;
  /** The JSON body sent: `{type, timestamp, data}`. */
  payload: Scalars['JSON']['output'];
  status: WebhookDeliveryStatus;
  updatedAt: Scalars['DateTime']['output'];
};

/** pending: waiting for its (next) attempt; delivering: being sent; succeeded; failed: every attempt failed. */
export type WebhookDeliveryStatus =
  | 'DELIVERING'
  | 'FAILED'
  | 'PENDING'
  | 'SUCCEEDED';

/** Where events of an environment are POSTed, signed per Standard Webhooks. The signing secret is shown only by createWebhookEndpoint. */
export type WebhookEndpoint = {
  __typename?: 'WebhookEndpoint';
  createdAt: Scalars['DateTime']['output'];
  /** The most recent deliveries, newest first (at most 100). */
  deliveries: Array<WebhookDelivery>;
  description: Scalars['String']['output'];
  /** `manual` (disabled by a caller) or `failing` (disabled after too many failed deliveries in a row); null when enabled. */
  disabledReason?: Maybe<Scalars['String']['output']>;
  enabled: Scalars['Boolean']['output'];
  environmentId: Scalars['ID']['output'];
  /** Event types: `response.created`, `response.updated`, `response.finished`, `form.generated`, `form.updated`. */
  eventTypes: Array<Scalars['String']['output']>;
  failedDeliveriesInARow: Scalars['Int']['output'];
  /** Only events of these forms; null: every form. */
  formIds?: Maybe<Array<Scalars['ID']['output']>>;
  /** `standard` (the event as JSON, the default) or `slack` (`{text, blocks}` that Slack and Mattermost incoming webhooks show; still signed). */
  format: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** `slack` only: put the response's answers in the message (passwords never). Default false. */
  includeAnswers: Scalars['Boolean']['output'];
  updatedAt: Scalars['DateTime']['output'];
  url: Scalars['String']['output'];
};


/** Where events of an environment are POSTed, signed per Standard Webhooks. The signing secret is shown only by createWebhookEndpoint. */
export type WebhookEndpointDeliveriesArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<WebhookDeliveryStatus>;
};

export type CreateEnvironmentMutationVariables = Exact<{
  input: CreateEnvironmentInput;
}>;


export type CreateEnvironmentMutation = { __typename?: 'Mutation', createEnvironment: { __typename?: 'Environment', id: string, name: string } };

export type ApiKeyFieldsFragment = { __typename?: 'ApiKey', id: string, environmentId: string, name: string, prefix: string, scopes: Array<Scope>, fullAccess: boolean, expiresAt?: string | null, formIds?: Array<string> | null, createdAt: string, lastUsedAt?: string | null, revoked: boolean, revokedAt?: string | null };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { __typename?: 'Mutation', createApiKey: { __typename?: 'CreateApiKeyPayload', key: string, apiKey: { __typename?: 'ApiKey', id: string, environmentId: string, name: string, prefix: string, scopes: Array<Scope>, fullAccess: boolean, expiresAt?: string | null, formIds?: Array<string> | null, createdAt: string, lastUsedAt?: string | null, revoked: boolean, revokedAt?: string | null } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RevokeApiKeyMutation = { __typename?: 'Mutation', revokeApiKey: { __typename?: 'ApiKey', id: string, environmentId: string, name: string, prefix: string, scopes: Array<Scope>, fullAccess: boolean, expiresAt?: string | null, formIds?: Array<string> | null, createdAt: string, lastUsedAt?: string | null, revoked: boolean, revokedAt?: string | null } };

export type EnvironmentApiKeysQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type EnvironmentApiKeysQuery = { __typename?: 'Query', environment: { __typename?: 'Environment', apiKeys: Array<{ __typename?: 'ApiKey', id: string, environmentId: string, name: string, prefix: string, scopes: Array<Scope>, fullAccess: boolean, expiresAt?: string | null, formIds?: Array<string> | null, createdAt: string, lastUsedAt?: string | null, revoked: boolean, revokedAt?: string | null }> } };

export type TrustDocumentMutationVariables = Exact<{
  document: Scalars['String']['input'];
}>;


export type TrustDocumentMutation = { __typename?: 'Mutation', trustGraphQLDocument: { __typename?: 'TrustedGraphQLDocument', hash: string, operationNames: Array<string>, builtIn: boolean, createdAt?: string | null } };

export type TrustedDocumentsQueryVariables = Exact<{ [key: string]: never; }>;


export type TrustedDocumentsQuery = { __typename?: 'Query', trustedGraphQLDocuments: Array<{ __typename?: 'TrustedGraphQLDocument', hash: string, operationNames: Array<string>, builtIn: boolean, createdAt?: string | null }> };

export type RotateSigningKeysMutationVariables = Exact<{ [key: string]: never; }>;


export type RotateSigningKeysMutation = { __typename?: 'Mutation', rotateSigningKeys: { __typename?: 'SigningKeyRotation', rotatedAt: string, previousKeysAcceptedUntil: string } };

export type GenerateFormMutationVariables = Exact<{
  environmentId: Scalars['ID']['input'];
  input: GenerateFormInput;
}>;


export type GenerateFormMutation = { __typename?: 'Mutation', generateForm: { __typename?: 'GenerateFormPayload', success: boolean, form: { __typename?: 'Form', id: string, url: string } } };

export type ImportFormMutationVariables = Exact<{
  input: ImportFormInput;
}>;


export type ImportFormMutation = { __typename?: 'Mutation', importForm: { __typename?: 'Form', id: string, url: string, status: FormStatus } };

export type DeleteFormMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteFormMutation = { __typename?: 'Mutation', deleteForm: { __typename?: 'DeleteFormPayload', id: string, deleted: boolean } };

export type CloseFormMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type CloseFormMutation = { __typename?: 'Mutation', closeForm: { __typename?: 'Form', id: string, status: FormStatus } };

export type ReopenFormMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type ReopenFormMutation = { __typename?: 'Mutation', reopenForm: { __typename?: 'Form', id: string, status: FormStatus } };

export type RestFormFieldsFragment = { __typename?: 'Form', id: string, name: string, url: string, status: FormStatus, version: number, createdAt: string, updatedAt: string };

export type EnvironmentFormsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<FormFilter>;
}>;


export type EnvironmentFormsQuery = { __typename?: 'Query', viewer: { __typename?: 'Viewer', environment?: { __typename?: 'Environment', forms: { __typename?: 'FormConnection', edges: Array<{ __typename?: 'FormEdge', node: { __typename?: 'Form', id: string, name: string, url: string, status: FormStatus, version: number, createdAt: string, updatedAt: string } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } } | null } };

export type RestFormQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RestFormQuery = { __typename?: 'Query', form?: { __typename?: 'Form', allowAnotherResponse: boolean, finishedResponses: number, id: string, name: string, url: string, status: FormStatus, version: number, createdAt: string, updatedAt: string, definition: { __typename?: 'FormDefinition', json: unknown }, limits?: { __typename?: 'FormLimits', maxResponses?: number | null, opensAt?: string | null, closesAt?: string | null, closedMessage?: string | null, notYetOpenMessage?: string | null, json: unknown } | null, quotas: Array<{ __typename?: 'Quota', count: number, json: unknown }> } | null };

export type UpdateFormMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: UpdateFormInput;
  expectedVersion?: InputMaybe<Scalars['Int']['input']>;
}>;


export type UpdateFormMutation = { __typename?: 'Mutation', updateForm: { __typename?: 'UpdateFormPayload', success: boolean, version: number, form: { __typename?: 'Form', id: string, url: string } } };

export type FormTranslationsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type FormTranslationsQuery = { __typename?: 'Query', form?: { __typename?: 'Form', id: string, version: number, translations: Array<{ __typename?: 'FormTranslation', locale: string, translated: number, total: number, missing: Array<string> }> } | null };

export type FormTranslationQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  locale: Scalars['String']['input'];
}>;


export type FormTranslationQuery = { __typename?: 'Query', form?: { __typename?: 'Form', id: string, version: number, translation?: unknown | null } | null };

export type PutFormTranslationMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  locale: Scalars['String']['input'];
  texts: Scalars['JSON']['input'];
  expectedVersion?: InputMaybe<Scalars['Int']['input']>;
}>;


export type PutFormTranslationMutation = { __typename?: 'Mutation', putFormTranslation: { __typename?: 'UpdateFormPayload', success: boolean, version: number, form: { __typename?: 'Form', id: string, url: string } } };

export type RestInsightsFieldsFragment = { __typename?: 'Insights', since?: string | null, until?: string | null, timeZone: string, groupBy: InsightsGroupBy, views: number, starts: number, finishes: number, invalid: number, startRate?: number | null, completionRate?: number | null, timeToComplete?: { __typename?: 'TimeToComplete', median: number, p90: number } | null, steps: Array<{ __typename?: 'InsightsStep', key: string, name: string, reached: number, leftHere: number, dropOffRate?: number | null }>, series: Array<{ __typename?: 'InsightsPeriod', period: string, views: number, starts: number, finishes: number }>, devices: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, referrers: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, languages: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, hiddenFields: Array<{ __typename?: 'InsightsHiddenField', name: string, values: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }> }> };

export type RestInsightsRowFragment = { __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number };

export type FormInsightsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  filter?: InputMaybe<InsightsFilter>;
}>;


export type FormInsightsQuery = { __typename?: 'Query', form?: { __typename?: 'Form', insights: { __typename?: 'Insights', since?: string | null, until?: string | null, timeZone: string, groupBy: InsightsGroupBy, views: number, starts: number, finishes: number, invalid: number, startRate?: number | null, completionRate?: number | null, timeToComplete?: { __typename?: 'TimeToComplete', median: number, p90: number } | null, steps: Array<{ __typename?: 'InsightsStep', key: string, name: string, reached: number, leftHere: number, dropOffRate?: number | null }>, series: Array<{ __typename?: 'InsightsPeriod', period: string, views: number, starts: number, finishes: number }>, devices: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, referrers: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, languages: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, hiddenFields: Array<{ __typename?: 'InsightsHiddenField', name: string, values: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }> }> } } | null };

export type EnvironmentInsightsQueryVariables = Exact<{
  filter?: InputMaybe<InsightsFilter>;
}>;


export type EnvironmentInsightsQuery = { __typename?: 'Query', viewer: { __typename?: 'Viewer', environment?: { __typename?: 'Environment', insights: { __typename?: 'Insights', since?: string | null, until?: string | null, timeZone: string, groupBy: InsightsGroupBy, views: number, starts: number, finishes: number, invalid: number, startRate?: number | null, completionRate?: number | null, timeToComplete?: { __typename?: 'TimeToComplete', median: number, p90: number } | null, steps: Array<{ __typename?: 'InsightsStep', key: string, name: string, reached: number, leftHere: number, dropOffRate?: number | null }>, series: Array<{ __typename?: 'InsightsPeriod', period: string, views: number, starts: number, finishes: number }>, devices: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, referrers: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, languages: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }>, hiddenFields: Array<{ __typename?: 'InsightsHiddenField', name: string, values: Array<{ __typename?: 'InsightsBreakdownRow', value: string, views: number, starts: number, finishes: number }> }> } } | null } };

export type McpResponseQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type McpResponseQuery = { __typename?: 'Query', node?:
    | { __typename?: 'ApiKey' }
    | { __typename?: 'Environment' }
    | { __typename?: 'Form' }
    | { __typename?: 'FormResponse', id: string, createdAt: string, updatedAt: string, dataUpdatedAt: string, finished: boolean, status: number, formId: string, version: string, meta: unknown, data: unknown, personAttributes: { __typename?: 'PersonAttributes', ip: string, country: string, visitedForm: number, completedForm: number } }
    | { __typename?: 'Lead' }
   | null };

export type McpFormSummaryQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type McpFormSummaryQuery = { __typename?: 'Query', form?: { __typename?: 'Form', id: string, name: string, summary: { __typename?: 'FormSummary', total: number, finished: number, partial: number, inProgress: number, droppedOff: number, invalid: number, completionRate: number, steps: Array<{ __typename?: 'StepReach', index: number, name: string, reached: number }>, questions: Array<{ __typename?: 'QuestionSummary', questionId: string, type: string, headline?: string | null, answers: number, options?: Array<{ __typename?: 'OptionCount', option: string, count: number }> | null, numbers?: { __typename?: 'NumberStatistics', count: number, mean?: number | null, median?: number | null, min?: number | null, max?: number | null } | null }> } } | null };

export type NotificationDeliveryFieldsFragment = { __typename?: 'NotificationDelivery', id: string, formId: string, responseId: string, kind: NotificationKind, trigger: string, recipient: string, status: NotificationDeliveryStatus, attempts: number, lastReply?: string | null, nextAttemptAt?: string | null, sentAt?: string | null, createdAt: string, updatedAt: string };

export type FormNotificationDeliveriesQueryVariables = Exact<{
  formId: Scalars['ID']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type FormNotificationDeliveriesQuery = { __typename?: 'Query', formNotificationDeliveries: { __typename?: 'NotificationDeliveryConnection', edges: Array<{ __typename?: 'NotificationDeliveryEdge', node: { __typename?: 'NotificationDelivery', id: string, formId: string, responseId: string, kind: NotificationKind, trigger: string, recipient: string, status: NotificationDeliveryStatus, attempts: number, lastReply?: string | null, nextAttemptAt?: string | null, sentAt?: string | null, createdAt: string, updatedAt: string } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type RetryNotificationDeliveryMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  formId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type RetryNotificationDeliveryMutation = { __typename?: 'Mutation', retryNotificationDelivery: { __typename?: 'NotificationDelivery', id: string, formId: string, responseId: string, kind: NotificationKind, trigger: string, recipient: string, status: NotificationDeliveryStatus, attempts: number, lastReply?: string | null, nextAttemptAt?: string | null, sentAt?: string | null, createdAt: string, updatedAt: string } };

export type DeleteResponseMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteResponseMutation = { __typename?: 'Mutation', deleteResponse: { __typename?: 'DeleteResponsePayload', id: string, deleted: boolean } };

export type DeleteResponsesMutationVariables = Exact<{
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter: DeleteResponsesFilter;
}>;


export type DeleteResponsesMutation = { __typename?: 'Mutation', deleteResponses: { __typename?: 'DeleteResponsesPayload', deletedCount: number, webhookEventsDeleted: number } };

export type ErasureFieldsFragment = { __typename?: 'Erasure', id: string, environmentId: string, leadId: string, erasedAt: string, actorKind: string, actorKeyId?: string | null, responsesDeleted: number, webhookEventsDeleted: number };

export type EraseLeadMutationVariables = Exact<{
  id?: InputMaybe<Scalars['ID']['input']>;
  email?: InputMaybe<Scalars['String']['input']>;
  environmentId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type EraseLeadMutation = { __typename?: 'Mutation', eraseLead: { __typename?: 'EraseLeadPayload', erased: boolean, alreadyErased: boolean, erasure?: { __typename?: 'Erasure', id: string, environmentId: string, leadId: string, erasedAt: string, actorKind: string, actorKeyId?: string | null, responsesDeleted: number, webhookEventsDeleted: number } | null } };

export type AuditLogQueryVariables = Exact<{
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AuditLogQuery = { __typename?: 'Query', auditLog: { __typename?: 'AuditLogConnection', edges: Array<{ __typename?: 'AuditLogEdge', node: { __typename?: 'AuditEntry', id: string, environmentId: string, at: string, actorKind: string, actorKeyId?: string | null, action: string, targetIds: Array<string>, details: unknown } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type EnvironmentSettingsFieldsFragment = { __typename?: 'Environment', id: string, ipStorage: IpStorage, retentionDays?: number | null, embedOrigins?: Array<string> | null, turnstile: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, recaptcha: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, smtp: { __typename?: 'SmtpSettings', url?: string | null, from?: string | null, passwordSet: boolean } };

export type EnvironmentSettingsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type EnvironmentSettingsQuery = { __typename?: 'Query', environment: { __typename?: 'Environment', id: string, ipStorage: IpStorage, retentionDays?: number | null, embedOrigins?: Array<string> | null, turnstile: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, recaptcha: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, smtp: { __typename?: 'SmtpSettings', url?: string | null, from?: string | null, passwordSet: boolean } } };

export type UpdateEnvironmentSettingsMutationVariables = Exact<{
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  input: EnvironmentSettingsInput;
}>;


export type UpdateEnvironmentSettingsMutation = { __typename?: 'Mutation', updateEnvironmentSettings: { __typename?: 'Environment', id: string, ipStorage: IpStorage, retentionDays?: number | null, embedOrigins?: Array<string> | null, turnstile: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, recaptcha: { __typename?: 'CaptchaKeys', siteKey?: string | null, secretKeySet: boolean }, smtp: { __typename?: 'SmtpSettings', url?: string | null, from?: string | null, passwordSet: boolean } } };

export type SetFormRetentionMutationVariables = Exact<{
  formId: Scalars['ID']['input'];
  retentionDays?: InputMaybe<Scalars['Int']['input']>;
}>;


export type SetFormRetentionMutation = { __typename?: 'Mutation', setFormRetention: { __typename?: 'Form', id: string, retentionDays?: number | null } };

export type RetentionStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type RetentionStatusQuery = { __typename?: 'Query', retentionStatus?: { __typename?: 'JobRun', name: string, startedAt: string, finishedAt?: string | null, status: string, responsesDeleted: number, formsPurged: number, error?: string | null, node: string } | null };

export type RestResponseFieldsFragment = { __typename?: 'FormResponse', id: string, createdAt: string, updatedAt: string, dataUpdatedAt: string, finished: boolean, status: number, formId: string, version: string, meta: unknown, data: unknown, personAttributes: { __typename?: 'PersonAttributes', ip: string, country: string, visitedForm: number, completedForm: number } };

export type FormResponsesPageQueryVariables = Exact<{
  formId: Scalars['ID']['input'];
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type FormResponsesPageQuery = { __typename?: 'Query', formResponses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string, createdAt: string, updatedAt: string, dataUpdatedAt: string, finished: boolean, status: number, formId: string, version: string, meta: unknown, data: unknown, personAttributes: { __typename?: 'PersonAttributes', ip: string, country: string, visitedForm: number, completedForm: number } } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type EnvironmentResponsesPageQueryVariables = Exact<{
  environmentId?: InputMaybe<Scalars['ID']['input']>;
  filter?: InputMaybe<ResponseFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type EnvironmentResponsesPageQuery = { __typename?: 'Query', environmentResponses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string, createdAt: string, updatedAt: string, dataUpdatedAt: string, finished: boolean, status: number, formId: string, version: string, meta: unknown, data: unknown, personAttributes: { __typename?: 'PersonAttributes', ip: string, country: string, visitedForm: number, completedForm: number } } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type ExportFormQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  versionsAfter?: InputMaybe<Scalars['String']['input']>;
}>;


export type ExportFormQuery = { __typename?: 'Query', form?: { __typename?: 'Form', id: string, environmentId: string, hiddenFields: Array<string>, variables: Array<{ __typename?: 'FormVariable', name: string }>, versions: { __typename?: 'FormVersionConnection', edges: Array<{ __typename?: 'FormVersionEdge', node: { __typename?: 'FormVersion', version: number, definition: { __typename?: 'FormDefinition', json: unknown } } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } } | null };

export type ShareLinkFieldsFragment = { __typename?: 'ShareLink', id: string, formId: string, includeTextAnswers: boolean, expiresAt?: string | null, createdAt: string };

export type FormShareLinksQueryVariables = Exact<{
  formId: Scalars['ID']['input'];
}>;


export type FormShareLinksQuery = { __typename?: 'Query', shareLinks: Array<{ __typename?: 'ShareLink', id: string, formId: string, includeTextAnswers: boolean, expiresAt?: string | null, createdAt: string }> };

export type CreateShareLinkMutationVariables = Exact<{
  formId: Scalars['ID']['input'];
  input?: InputMaybe<CreateShareLinkInput>;
}>;


export type CreateShareLinkMutation = { __typename?: 'Mutation', createShareLink: { __typename?: 'CreateShareLinkPayload', url: string, shareLink: { __typename?: 'ShareLink', id: string, formId: string, includeTextAnswers: boolean, expiresAt?: string | null, createdAt: string } } };

export type RevokeShareLinkMutationVariables = Exact<{
  formId: Scalars['ID']['input'];
  id: Scalars['ID']['input'];
}>;


export type RevokeShareLinkMutation = { __typename?: 'Mutation', revokeShareLink: { __typename?: 'RevokeShareLinkPayload', id: string, formId: string, revoked: boolean } };

export type WebhookEndpointFieldsFragment = { __typename?: 'WebhookEndpoint', id: string, environmentId: string, url: string, description: string, eventTypes: Array<string>, formIds?: Array<string> | null, enabled: boolean, disabledReason?: string | null, failedDeliveriesInARow: number, format: string, includeAnswers: boolean, createdAt: string, updatedAt: string };

export type WebhookDeliveryFieldsFragment = { __typename?: 'WebhookDelivery', id: string, endpointId: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, nextAttemptAt?: string | null, lastStatusCode?: number | null, lastError?: string | null, createdAt: string, updatedAt: string, attempts: Array<{ __typename?: 'WebhookAttempt', attempt: number, startedAt: string, durationMs: number, statusCode?: number | null, error?: string | null, succeeded: boolean }> };

export type WebhookEndpointsQueryVariables = Exact<{
  environmentId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type WebhookEndpointsQuery = { __typename?: 'Query', webhookEndpoints: Array<{ __typename?: 'WebhookEndpoint', id: string, environmentId: string, url: string, description: string, eventTypes: Array<string>, formIds?: Array<string> | null, enabled: boolean, disabledReason?: string | null, failedDeliveriesInARow: number, format: string, includeAnswers: boolean, createdAt: string, updatedAt: string }> };

export type WebhookEndpointQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type WebhookEndpointQuery = { __typename?: 'Query', webhookEndpoint: { __typename?: 'WebhookEndpoint', id: string, environmentId: string, url: string, description: string, eventTypes: Array<string>, formIds?: Array<string> | null, enabled: boolean, disabledReason?: string | null, failedDeliveriesInARow: number, format: string, includeAnswers: boolean, createdAt: string, updatedAt: string } };

export type WebhookDeliveriesQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<WebhookDeliveryStatus>;
}>;


export type WebhookDeliveriesQuery = { __typename?: 'Query', webhookEndpoint: { __typename?: 'WebhookEndpoint', id: string, deliveries: Array<{ __typename?: 'WebhookDelivery', id: string, endpointId: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, nextAttemptAt?: string | null, lastStatusCode?: number | null, lastError?: string | null, createdAt: string, updatedAt: string, attempts: Array<{ __typename?: 'WebhookAttempt', attempt: number, startedAt: string, durationMs: number, statusCode?: number | null, error?: string | null, succeeded: boolean }> }> } };

export type CreateWebhookEndpointMutationVariables = Exact<{
  input: CreateWebhookEndpointInput;
}>;


export type CreateWebhookEndpointMutation = { __typename?: 'Mutation', createWebhookEndpoint: { __typename?: 'CreateWebhookEndpointPayload', secret: string, endpoint: { __typename?: 'WebhookEndpoint', id: string, environmentId: string, url: string, description: string, eventTypes: Array<string>, formIds?: Array<string> | null, enabled: boolean, disabledReason?: string | null, failedDeliveriesInARow: number, format: string, includeAnswers: boolean, createdAt: string, updatedAt: string } } };

export type UpdateWebhookEndpointMutationVariables = Exact<{
  id: Scalars['ID']['input'];
  input: UpdateWebhookEndpointInput;
}>;


export type UpdateWebhookEndpointMutation = { __typename?: 'Mutation', updateWebhookEndpoint: { __typename?: 'WebhookEndpoint', id: string, environmentId: string, url: string, description: string, eventTypes: Array<string>, formIds?: Array<string> | null, enabled: boolean, disabledReason?: string | null, failedDeliveriesInARow: number, format: string, includeAnswers: boolean, createdAt: string, updatedAt: string } };

export type DeleteWebhookEndpointMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DeleteWebhookEndpointMutation = { __typename?: 'Mutation', deleteWebhookEndpoint: { __typename?: 'DeletedWebhookEndpoint', id: string, deleted: boolean } };

export type TestWebhookEndpointMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type TestWebhookEndpointMutation = { __typename?: 'Mutation', testWebhookEndpoint: { __typename?: 'WebhookDelivery', id: string, endpointId: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, nextAttemptAt?: string | null, lastStatusCode?: number | null, lastError?: string | null, createdAt: string, updatedAt: string, attempts: Array<{ __typename?: 'WebhookAttempt', attempt: number, startedAt: string, durationMs: number, statusCode?: number | null, error?: string | null, succeeded: boolean }> } };

export type ResendWebhookDeliveryMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type ResendWebhookDeliveryMutation = { __typename?: 'Mutation', resendWebhookDelivery: { __typename?: 'WebhookDelivery', id: string, endpointId: string, eventId: string, eventType: string, status: WebhookDeliveryStatus, attemptCount: number, nextAttemptAt?: string | null, lastStatusCode?: number | null, lastError?: string | null, createdAt: string, updatedAt: string, attempts: Array<{ __typename?: 'WebhookAttempt', attempt: number, startedAt: string, durationMs: number, statusCode?: number | null, error?: string | null, succeeded: boolean }> } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { __typename?: 'Query', viewer: { __typename?: 'Viewer', kind: ViewerKind, environment?: { __typename?: 'Environment', id: string, nodeId: string, name: string } | null, apiKey?: { __typename?: 'ApiKey', id: string, nodeId: string, prefix: string, name: string, createdAt: string, lastUsedAt?: string | null, revokedAt?: string | null, revoked: boolean } | null } };

export type EnvironmentGraphQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  formFilter?: InputMaybe<FormFilter>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  email?: InputMaybe<Scalars['String']['input']>;
}>;


export type EnvironmentGraphQuery = { __typename?: 'Query', environment: { __typename?: 'Environment', id: string, forms: { __typename?: 'FormConnection', edges: Array<{ __typename?: 'FormEdge', cursor: string, node: { __typename?: 'Form', id: string, name: string, status: FormStatus, sourceFormId?: string | null } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } }, apiKeys: Array<{ __typename?: 'ApiKey', id: string, prefix: string, name: string, revokedAt?: string | null, lastUsedAt?: string | null }>, leads: { __typename?: 'LeadConnection', edges: Array<{ __typename?: 'LeadEdge', node: { __typename?: 'Lead', id: string, email?: string | null, responses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string, formId: string } }> } } }> }, responses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string, formId: string } }> } } };

export type FormGraphQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type FormGraphQuery = { __typename?: 'Query', form?: { __typename?: 'Form', id: string, nodeId: string, status: FormStatus, sourceForm?: { __typename?: 'Form', id: string, name: string } | null, generatedForms: { __typename?: 'FormConnection', edges: Array<{ __typename?: 'FormEdge', node: { __typename?: 'Form', id: string, name: string } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean } }, responses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string, nodeId: string, leadId: string, form?: { __typename?: 'Form', id: string } | null, lead?: { __typename?: 'Lead', id: string, email?: string | null, nodeId: string } | null } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } } | null };

export type NodeLookupQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type NodeLookupQuery = { __typename?: 'Query', node?:
    | { __typename: 'ApiKey', prefix: string, nodeId: string, id: string }
    | { __typename: 'Environment', name: string, nodeId: string, id: string }
    | { __typename: 'Form', name: string, nodeId: string, id: string }
    | { __typename: 'FormResponse', formId: string, nodeId: string, id: string }
    | { __typename: 'Lead', email?: string | null, nodeId: string, id: string }
   | null };

export type NodesLookupQueryVariables = Exact<{
  ids: Array<Scalars['ID']['input']> | Scalars['ID']['input'];
}>;


export type NodesLookupQuery = { __typename?: 'Query', nodes: Array<
    | { __typename: 'ApiKey', id: string }
    | { __typename: 'Environment', id: string }
    | { __typename: 'Form', id: string }
    | { __typename: 'FormResponse', id: string }
    | { __typename: 'Lead', id: string }
   | null> };

export type FormSummaryQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  filter?: InputMaybe<SummaryFilter>;
}>;


export type FormSummaryQuery = { __typename?: 'Query', form?: { __typename?: 'Form', summary: { __typename?: 'FormSummary', total: number, finished: number, partial: number, inProgress: number, droppedOff: number, completionRate: number, steps: Array<{ __typename?: 'StepReach', stepId: string, index: number, name: string, reached: number }>, questions: Array<{ __typename?: 'QuestionSummary', questionId: string, type: string, headline?: string | null, answers: number, options?: Array<{ __typename?: 'OptionCount', option: string, count: number }> | null }> } } | null };

export type FormsOverviewQueryVariables = Exact<{
  first: Scalars['Int']['input'];
}>;


export type FormsOverviewQuery = { __typename?: 'Query', viewer: { __typename?: 'Viewer', environment?: { __typename?: 'Environment', forms: { __typename?: 'FormConnection', edges: Array<{ __typename?: 'FormEdge', node: { __typename?: 'Form', id: string, summary: { __typename?: 'FormSummary', total: number }, responses: { __typename?: 'FormResponseConnection', edges: Array<{ __typename?: 'FormResponseEdge', node: { __typename?: 'FormResponse', id: string } }> } } }> } } | null } };

export const ApiKeyFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"fullAccess"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]} as unknown as DocumentNode<ApiKeyFieldsFragment, unknown>;
export const RestFormFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Form"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RestFormFieldsFragment, unknown>;
export const RestInsightsRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsBreakdownRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}}]} as unknown as DocumentNode<RestInsightsRowFragment, unknown>;
export const RestInsightsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Insights"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"groupBy"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}},{"kind":"Field","name":{"kind":"Name","value":"invalid"}},{"kind":"Field","name":{"kind":"Name","value":"startRate"}},{"kind":"Field","name":{"kind":"Name","value":"completionRate"}},{"kind":"Field","name":{"kind":"Name","value":"timeToComplete"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"median"}},{"kind":"Field","name":{"kind":"Name","value":"p90"}}]}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reached"}},{"kind":"Field","name":{"kind":"Name","value":"leftHere"}},{"kind":"Field","name":{"kind":"Name","value":"dropOffRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"devices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"referrers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hiddenFields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsBreakdownRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}}]} as unknown as DocumentNode<RestInsightsFieldsFragment, unknown>;
export const NotificationDeliveryFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"recipient"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastReply"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"sentAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<NotificationDeliveryFieldsFragment, unknown>;
export const ErasureFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"leadId"}},{"kind":"Field","name":{"kind":"Name","value":"erasedAt"}},{"kind":"Field","name":{"kind":"Name","value":"actorKind"}},{"kind":"Field","name":{"kind":"Name","value":"actorKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"responsesDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"webhookEventsDeleted"}}]}}]} as unknown as DocumentNode<ErasureFieldsFragment, unknown>;
export const EnvironmentSettingsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EnvironmentSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Environment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ipStorage"}},{"kind":"Field","name":{"kind":"Name","value":"retentionDays"}},{"kind":"Field","name":{"kind":"Name","value":"turnstile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recaptcha"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"smtp"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"passwordSet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"embedOrigins"}}]}}]} as unknown as DocumentNode<EnvironmentSettingsFieldsFragment, unknown>;
export const RestResponseFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"dataUpdatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"data"},"name":{"kind":"Name","value":"rawData"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"personAttributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ip"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"visitedForm"}},{"kind":"Field","name":{"kind":"Name","value":"completedForm"}}]}}]}}]} as unknown as DocumentNode<RestResponseFieldsFragment, unknown>;
export const ShareLinkFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShareLinkFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"includeTextAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<ShareLinkFieldsFragment, unknown>;
export const WebhookEndpointFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookEndpointFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failedDeliveriesInARow"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"includeAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<WebhookEndpointFieldsFragment, unknown>;
export const WebhookDeliveryFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastStatusCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"}}]}}]}}]} as unknown as DocumentNode<WebhookDeliveryFieldsFragment, unknown>;
export const CreateEnvironmentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateEnvironment"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateEnvironmentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createEnvironment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CreateEnvironmentMutation, CreateEnvironmentMutationVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiKeyInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"key"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"fullAccess"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"fullAccess"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const EnvironmentApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentApiKeys"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"fullAccess"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]} as unknown as DocumentNode<EnvironmentApiKeysQuery, EnvironmentApiKeysQueryVariables>;
export const TrustDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TrustDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"document"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trustGraphQLDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"document"},"value":{"kind":"Variable","name":{"kind":"Name","value":"document"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hash"}},{"kind":"Field","name":{"kind":"Name","value":"operationNames"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<TrustDocumentMutation, TrustDocumentMutationVariables>;
export const TrustedDocumentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrustedDocuments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trustedGraphQLDocuments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hash"}},{"kind":"Field","name":{"kind":"Name","value":"operationNames"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<TrustedDocumentsQuery, TrustedDocumentsQueryVariables>;
export const RotateSigningKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateSigningKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateSigningKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"previousKeysAcceptedUntil"}}]}}]}}]} as unknown as DocumentNode<RotateSigningKeysMutation, RotateSigningKeysMutationVariables>;
export const GenerateFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GenerateForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GenerateFormInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generateForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"form"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]} as unknown as DocumentNode<GenerateFormMutation, GenerateFormMutationVariables>;
export const ImportFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImportForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportFormInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ImportFormMutation, ImportFormMutationVariables>;
export const DeleteFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<DeleteFormMutation, DeleteFormMutationVariables>;
export const CloseFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CloseForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"closeForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CloseFormMutation, CloseFormMutationVariables>;
export const ReopenFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReopenForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reopenForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<ReopenFormMutation, ReopenFormMutationVariables>;
export const EnvironmentFormsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentForms"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FormFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forms"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestFormFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Form"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<EnvironmentFormsQuery, EnvironmentFormsQueryVariables>;
export const RestFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RestForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestFormFields"}},{"kind":"Field","name":{"kind":"Name","value":"allowAnotherResponse"}},{"kind":"Field","name":{"kind":"Name","value":"definition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"json"}}]}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"maxResponses"}},{"kind":"Field","name":{"kind":"Name","value":"opensAt"}},{"kind":"Field","name":{"kind":"Name","value":"closesAt"}},{"kind":"Field","name":{"kind":"Name","value":"closedMessage"}},{"kind":"Field","name":{"kind":"Name","value":"notYetOpenMessage"}},{"kind":"Field","name":{"kind":"Name","value":"json"}}]}},{"kind":"Field","name":{"kind":"Name","value":"finishedResponses"}},{"kind":"Field","name":{"kind":"Name","value":"quotas"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"json"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Form"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RestFormQuery, RestFormQueryVariables>;
export const UpdateFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateFormInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateForm"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"form"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateFormMutation, UpdateFormMutationVariables>;
export const FormTranslationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormTranslations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"translations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"locale"}},{"kind":"Field","name":{"kind":"Name","value":"translated"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"missing"}}]}}]}}]}}]} as unknown as DocumentNode<FormTranslationsQuery, FormTranslationsQueryVariables>;
export const FormTranslationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormTranslation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"locale"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"translation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"locale"},"value":{"kind":"Variable","name":{"kind":"Name","value":"locale"}}}]}]}}]}}]} as unknown as DocumentNode<FormTranslationQuery, FormTranslationQueryVariables>;
export const PutFormTranslationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PutFormTranslation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"locale"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"texts"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"putFormTranslation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"locale"},"value":{"kind":"Variable","name":{"kind":"Name","value":"locale"}}},{"kind":"Argument","name":{"kind":"Name","value":"texts"},"value":{"kind":"Variable","name":{"kind":"Name","value":"texts"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"form"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]} as unknown as DocumentNode<PutFormTranslationMutation, PutFormTranslationMutationVariables>;
export const FormInsightsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormInsights"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"insights"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsBreakdownRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Insights"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"groupBy"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}},{"kind":"Field","name":{"kind":"Name","value":"invalid"}},{"kind":"Field","name":{"kind":"Name","value":"startRate"}},{"kind":"Field","name":{"kind":"Name","value":"completionRate"}},{"kind":"Field","name":{"kind":"Name","value":"timeToComplete"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"median"}},{"kind":"Field","name":{"kind":"Name","value":"p90"}}]}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reached"}},{"kind":"Field","name":{"kind":"Name","value":"leftHere"}},{"kind":"Field","name":{"kind":"Name","value":"dropOffRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"devices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"referrers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hiddenFields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}}]}}]}}]} as unknown as DocumentNode<FormInsightsQuery, FormInsightsQueryVariables>;
export const EnvironmentInsightsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentInsights"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"insights"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InsightsBreakdownRow"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestInsightsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Insights"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"groupBy"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}},{"kind":"Field","name":{"kind":"Name","value":"invalid"}},{"kind":"Field","name":{"kind":"Name","value":"startRate"}},{"kind":"Field","name":{"kind":"Name","value":"completionRate"}},{"kind":"Field","name":{"kind":"Name","value":"timeToComplete"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"median"}},{"kind":"Field","name":{"kind":"Name","value":"p90"}}]}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reached"}},{"kind":"Field","name":{"kind":"Name","value":"leftHere"}},{"kind":"Field","name":{"kind":"Name","value":"dropOffRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"views"}},{"kind":"Field","name":{"kind":"Name","value":"starts"}},{"kind":"Field","name":{"kind":"Name","value":"finishes"}}]}},{"kind":"Field","name":{"kind":"Name","value":"devices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"referrers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hiddenFields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestInsightsRow"}}]}}]}}]}}]} as unknown as DocumentNode<EnvironmentInsightsQuery, EnvironmentInsightsQueryVariables>;
export const McpResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"McpResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestResponseFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"dataUpdatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"data"},"name":{"kind":"Name","value":"rawData"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"personAttributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ip"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"visitedForm"}},{"kind":"Field","name":{"kind":"Name","value":"completedForm"}}]}}]}}]} as unknown as DocumentNode<McpResponseQuery, McpResponseQueryVariables>;
export const McpFormSummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"McpFormSummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"partial"}},{"kind":"Field","name":{"kind":"Name","value":"inProgress"}},{"kind":"Field","name":{"kind":"Name","value":"droppedOff"}},{"kind":"Field","name":{"kind":"Name","value":"invalid"}},{"kind":"Field","name":{"kind":"Name","value":"completionRate"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reached"}}]}},{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"questionId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"headline"}},{"kind":"Field","name":{"kind":"Name","value":"answers"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"numbers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"count"}},{"kind":"Field","name":{"kind":"Name","value":"mean"}},{"kind":"Field","name":{"kind":"Name","value":"median"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<McpFormSummaryQuery, McpFormSummaryQueryVariables>;
export const FormNotificationDeliveriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormNotificationDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"formNotificationDeliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NotificationDeliveryFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"recipient"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastReply"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"sentAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<FormNotificationDeliveriesQuery, FormNotificationDeliveriesQueryVariables>;
export const RetryNotificationDeliveryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RetryNotificationDelivery"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retryNotificationDelivery"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NotificationDeliveryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NotificationDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"responseId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"trigger"}},{"kind":"Field","name":{"kind":"Name","value":"recipient"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"lastReply"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"sentAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<RetryNotificationDeliveryMutation, RetryNotificationDeliveryMutationVariables>;
export const DeleteResponseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteResponse"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteResponse"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<DeleteResponseMutation, DeleteResponseMutationVariables>;
export const DeleteResponsesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteResponses"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeleteResponsesFilter"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteResponses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deletedCount"}},{"kind":"Field","name":{"kind":"Name","value":"webhookEventsDeleted"}}]}}]}}]} as unknown as DocumentNode<DeleteResponsesMutation, DeleteResponsesMutationVariables>;
export const EraseLeadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EraseLead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eraseLead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}},{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"erased"}},{"kind":"Field","name":{"kind":"Name","value":"alreadyErased"}},{"kind":"Field","name":{"kind":"Name","value":"erasure"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ErasureFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ErasureFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Erasure"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"leadId"}},{"kind":"Field","name":{"kind":"Name","value":"erasedAt"}},{"kind":"Field","name":{"kind":"Name","value":"actorKind"}},{"kind":"Field","name":{"kind":"Name","value":"actorKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"responsesDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"webhookEventsDeleted"}}]}}]} as unknown as DocumentNode<EraseLeadMutation, EraseLeadMutationVariables>;
export const AuditLogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AuditLog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"auditLog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"actorKind"}},{"kind":"Field","name":{"kind":"Name","value":"actorKeyId"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"targetIds"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<AuditLogQuery, AuditLogQueryVariables>;
export const EnvironmentSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EnvironmentSettingsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EnvironmentSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Environment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ipStorage"}},{"kind":"Field","name":{"kind":"Name","value":"retentionDays"}},{"kind":"Field","name":{"kind":"Name","value":"turnstile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recaptcha"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"smtp"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"passwordSet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"embedOrigins"}}]}}]} as unknown as DocumentNode<EnvironmentSettingsQuery, EnvironmentSettingsQueryVariables>;
export const UpdateEnvironmentSettingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateEnvironmentSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"EnvironmentSettingsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateEnvironmentSettings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"EnvironmentSettingsFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"EnvironmentSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Environment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"ipStorage"}},{"kind":"Field","name":{"kind":"Name","value":"retentionDays"}},{"kind":"Field","name":{"kind":"Name","value":"turnstile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recaptcha"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"siteKey"}},{"kind":"Field","name":{"kind":"Name","value":"secretKeySet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"smtp"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"passwordSet"}}]}},{"kind":"Field","name":{"kind":"Name","value":"embedOrigins"}}]}}]} as unknown as DocumentNode<UpdateEnvironmentSettingsMutation, UpdateEnvironmentSettingsMutationVariables>;
export const SetFormRetentionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetFormRetention"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"retentionDays"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setFormRetention"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}},{"kind":"Argument","name":{"kind":"Name","value":"retentionDays"},"value":{"kind":"Variable","name":{"kind":"Name","value":"retentionDays"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"retentionDays"}}]}}]}}]} as unknown as DocumentNode<SetFormRetentionMutation, SetFormRetentionMutationVariables>;
export const RetentionStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RetentionStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"retentionStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"responsesDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"formsPurged"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"node"}}]}}]}}]} as unknown as DocumentNode<RetentionStatusQuery, RetentionStatusQueryVariables>;
export const FormResponsesPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormResponsesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ResponseFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"formResponses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}},{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestResponseFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"dataUpdatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"data"},"name":{"kind":"Name","value":"rawData"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"personAttributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ip"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"visitedForm"}},{"kind":"Field","name":{"kind":"Name","value":"completedForm"}}]}}]}}]} as unknown as DocumentNode<FormResponsesPageQuery, FormResponsesPageQueryVariables>;
export const EnvironmentResponsesPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentResponsesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ResponseFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environmentResponses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RestResponseFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RestResponseFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"dataUpdatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","alias":{"kind":"Name","value":"data"},"name":{"kind":"Name","value":"rawData"}},{"kind":"Field","name":{"kind":"Name","value":"meta"}},{"kind":"Field","name":{"kind":"Name","value":"personAttributes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ip"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"visitedForm"}},{"kind":"Field","name":{"kind":"Name","value":"completedForm"}}]}}]}}]} as unknown as DocumentNode<EnvironmentResponsesPageQuery, EnvironmentResponsesPageQueryVariables>;
export const ExportFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExportForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionsAfter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"hiddenFields"}},{"kind":"Field","name":{"kind":"Name","value":"variables"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionsAfter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"definition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"json"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ExportFormQuery, ExportFormQueryVariables>;
export const FormShareLinksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormShareLinks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shareLinks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShareLinkFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShareLinkFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"includeTextAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<FormShareLinksQuery, FormShareLinksQueryVariables>;
export const CreateShareLinkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateShareLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateShareLinkInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"shareLink"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShareLinkFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShareLinkFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShareLink"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"includeTextAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<CreateShareLinkMutation, CreateShareLinkMutationVariables>;
export const RevokeShareLinkDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeShareLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeShareLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"formId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}}]}}]}}]} as unknown as DocumentNode<RevokeShareLinkMutation, RevokeShareLinkMutationVariables>;
export const WebhookEndpointsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpoints"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoints"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"environmentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"environmentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookEndpointFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookEndpointFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failedDeliveriesInARow"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"includeAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<WebhookEndpointsQuery, WebhookEndpointsQueryVariables>;
export const WebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookEndpointFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookEndpointFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failedDeliveriesInARow"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"includeAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<WebhookEndpointQuery, WebhookEndpointQueryVariables>;
export const WebhookDeliveriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDeliveryStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookDeliveryFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastStatusCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"}}]}}]}}]} as unknown as DocumentNode<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const CreateWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateWebhookEndpointInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookEndpointFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookEndpointFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failedDeliveriesInARow"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"includeAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<CreateWebhookEndpointMutation, CreateWebhookEndpointMutationVariables>;
export const UpdateWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateWebhookEndpointInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookEndpointFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookEndpointFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEndpoint"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"environmentId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"formIds"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failedDeliveriesInARow"}},{"kind":"Field","name":{"kind":"Name","value":"format"}},{"kind":"Field","name":{"kind":"Name","value":"includeAnswers"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<UpdateWebhookEndpointMutation, UpdateWebhookEndpointMutationVariables>;
export const DeleteWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<DeleteWebhookEndpointMutation, DeleteWebhookEndpointMutationVariables>;
export const TestWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TestWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"testWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookDeliveryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastStatusCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"}}]}}]}}]} as unknown as DocumentNode<TestWebhookEndpointMutation, TestWebhookEndpointMutationVariables>;
export const ResendWebhookDeliveryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResendWebhookDelivery"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resendWebhookDelivery"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookDeliveryFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookDeliveryFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastStatusCode"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"}}]}}]}}]} as unknown as DocumentNode<ResendWebhookDeliveryMutation, ResendWebhookDeliveryMutationVariables>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revoked"}}]}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const EnvironmentGraphDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EnvironmentGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"formFilter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"FormFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"forms"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"formFilter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sourceFormId"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"leads"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"returnPartials"},"value":{"kind":"BooleanValue","value":true}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}}]}}]}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"returnPartials"},"value":{"kind":"BooleanValue","value":true}}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"formId"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<EnvironmentGraphQuery, EnvironmentGraphQueryVariables>;
export const FormGraphDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormGraph"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"sourceForm"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"generatedForms"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"returnPartials"},"value":{"kind":"BooleanValue","value":true}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"leadId"}},{"kind":"Field","name":{"kind":"Name","value":"form"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"lead"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<FormGraphQuery, FormGraphQueryVariables>;
export const NodeLookupDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NodeLookup"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Environment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Form"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"FormResponse"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"formId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Lead"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}}]}}]}}]}}]} as unknown as DocumentNode<NodeLookupQuery, NodeLookupQueryVariables>;
export const NodesLookupDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NodesLookup"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<NodesLookupQuery, NodesLookupQueryVariables>;
export const FormSummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormSummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SummaryFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"form"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summary"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"finished"}},{"kind":"Field","name":{"kind":"Name","value":"partial"}},{"kind":"Field","name":{"kind":"Name","value":"inProgress"}},{"kind":"Field","name":{"kind":"Name","value":"droppedOff"}},{"kind":"Field","name":{"kind":"Name","value":"completionRate"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stepId"}},{"kind":"Field","name":{"kind":"Name","value":"index"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reached"}}]}},{"kind":"Field","name":{"kind":"Name","value":"questions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"questionId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"headline"}},{"kind":"Field","name":{"kind":"Name","value":"answers"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<FormSummaryQuery, FormSummaryQueryVariables>;
export const FormsOverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FormsOverview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"forms"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","name":{"kind":"Name","value":"responses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"returnPartials"},"value":{"kind":"BooleanValue","value":true}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<FormsOverviewQuery, FormsOverviewQueryVariables>;