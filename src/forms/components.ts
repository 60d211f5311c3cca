/**
 * The component catalogue: zod schemas of every component type's content, and the rules that
 * normalise aliases into the stored shape. This file is the single source of truth for what a
 * form may contain; GraphQL, REST and the CLI all validate through `generateFormInputSchema` /
 * `importFormInputSchema`.
 *
 * Validation reports every problem at once, each with a path from the request body's root
 * (e.g. `["steps", 0, "components", 1, "content"]`).
 */
import { z } from 'zod';

// A missing field reads "Required" rather than "expected string, received undefined".
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined),
});

export const IDENTITY_FIELD_KEYS = [
  'firstName',
  'lastName',
  'fullName',
  'emailAddress',
  'workEmailAddress',
  'phoneNumber',
  'companyName',
  'numberOfEmployees',
  'websiteUrl',
  'title',
  'streetAddress',
  'aptSuiteEtc',
  'city',
  'state',
  'country',
  'zipCode',
  'companyRevenue',
  'profilePictureUrl',
] as const;
export type IdentityFieldKey = (typeof IDENTITY_FIELD_KEYS)[number];

export const CALENDAR_PROVIDERS = [
  'Calendly',
  'Cal',
  'Hubspot',
  'SavvyCal',
  'RevenueHero',
  'ReclaimAI',
  'Clari',
  'ChiliCal',
] as const;
export type CalendarProvider = (typeof CALENDAR_PROVIDERS)[number];

/** `CalendlyScreen`, `CalScreen`, …: scheduler components named after their provider. */
export const PROVIDER_SCREEN_TYPES = CALENDAR_PROVIDERS.map((p) => `${p}Screen` as const);
const providerOfScreenType = new Map<string, CalendarProvider>(
  CALENDAR_PROVIDERS.map((p) => [`${p}Screen`, p]),
);
export function isSchedulerType(type: string): boolean {
  return type === 'Scheduler' || providerOfScreenType.has(type);
}
/** Types whose answer is a booking: every scheduler type and DynamicScheduler. */
export function isBookingType(type: string): boolean {
  return isSchedulerType(type) || type === 'DynamicScheduler';
}

// Limits the spec leaves open (documented in the README).
export const LIMITS = {
  maxSteps: 100,
  maxComponentsPerStep: 100,
  maxNameLength: 200,
  maxTextLength: 10_000,
  maxOptions: 500,
} as const;

const text = z.string().max(LIMITS.maxTextLength);
const shortText = z.string().max(LIMITS.maxNameLength);
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

type Content = Record<string, unknown>;

/** A rule over the raw content that a field-by-field schema can't express. */
interface Problem {
  message: string;
  /** Relative to `content`. */
  path: PropertyKey[];
}

interface CatalogueEntry {
  /** Field types of the content. Loose unless said otherwise: unknown keys are kept as sent. */
  schema: z.ZodType<Content>;
  /** Cross-field rules, run on the raw content even when the schema found problems, so all are reported. */
  rules?: (raw: Content, type: string) => Problem[];
  /** Turns the parsed content into the stored shape (aliases resolved). */
  normalise?: (content: Content, type: string) => Content;
  /** The type stored when this is an older name for another type. */
  storedType?: string;
}

// ---------------------------------------------------------------- IdentityInfo

const identityFieldSchema = z.strictObject({
  key: z.enum(IDENTITY_FIELD_KEYS, {
    error: (issue) => `Unknown IdentityInfo field key ${JSON.stringify(issue.input)}; expected one of: ${IDENTITY_FIELD_KEYS.join(', ')}`,
  }),
  label: shortText,
  placeholder: shortText.optional(),
  required: z.boolean().optional(),
  includeDialCode: z.boolean().optional(),
  defaultDialCodeCountry: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, e.g. "US"')
    .transform((code) => code.toUpperCase())
    .optional(),
  blockPersonalEmails: z.boolean().optional(),
  revealAfter: z.enum(IDENTITY_FIELD_KEYS).optional(),
});
export type IdentityField = z.output<typeof identityFieldSchema>;

/** Older clients send `{type, name, label, required}` with `name` in place of `key`, and `phone` for `phoneNumber`. */
const legacyIdentityFieldSchema = z
  .strictObject({
    type: z.enum(['text', 'email', 'tel', 'phone', 'number', 'url']).optional(),
    name: z.string(),
    label: shortText,
    required: z.boolean().optional(),
    placeholder: shortText.optional(),
  })
  .transform((legacy, ctx) => {
    const key = legacy.name === 'phone' ? 'phoneNumber' : legacy.name;
    const parsed = identityFieldSchema.shape.key.safeParse(key);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', path: ['name'], input: legacy.name, message: parsed.error.issues[0]!.message });
      return z.NEVER;
    }
    const field: IdentityField = { key: parsed.data, label: legacy.label };
    if (legacy.placeholder !== undefined) field.placeholder = legacy.placeholder;
    if (legacy.required !== undefined) field.required = legacy.required;
    return field;
  });

const anyIdentityField = z.unknown().transform((raw, ctx): IdentityField => {
  const isLegacy = isObject(raw) && !('key' in raw) && 'name' in raw;
  const parsed = (isLegacy ? legacyIdentityFieldSchema : identityFieldSchema).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: raw } as never);
  return z.NEVER;
});

const identityInfo: CatalogueEntry = {
  schema: z.strictObject({ fields: z.array(anyIdentityField).min(1, 'IdentityInfo needs at least 1 field') }),
  rules: (raw) => {
    if (!Array.isArray(raw.fields)) return [];
    const problems: Problem[] = [];
    const keyOf = (field: unknown) =>
      isObject(field) ? (field.key ?? (field.name === 'phone' ? 'phoneNumber' : field.name)) : undefined;
    const keys = raw.fields.map(keyOf);
    raw.fields.forEach((field, index) => {
      const key = keys[index];
      if (typeof key === 'string' && keys.indexOf(key) !== index) {
        problems.push({ path: ['fields', index, 'key'], message: `Duplicate IdentityInfo field key "${key}"` });
      }
      const revealAfter = isObject(field) ? field.revealAfter : undefined;
      if (typeof revealAfter === 'string' && (revealAfter === key || !keys.includes(revealAfter))) {
        problems.push({
          path: ['fields', index, 'revealAfter'],
          message: `revealAfter must name another field of this IdentityInfo, got "${revealAfter}"`,
        });
      }
    });
    return problems;
  },
};

// ---------------------------------------------------------------- choices

const optionList = z.array(shortText.min(1, 'an option must not be empty')).max(LIMITS.maxOptions);

const dropdown: CatalogueEntry = {
  schema: z.looseObject({
    question: text.optional(),
    options: optionList.optional(),
    choices: optionList.optional(),
    placeholder: shortText.optional(),
    isMulti: z.boolean().optional(),
    hideQuestion: z.boolean().optional(),
  }),
  rules: (raw) => {
    const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
    return count(raw.options) + count(raw.choices) === 0
      ? [{ path: [], message: "Dropdown requires at least 1 option (via 'options' or 'choices')" }]
      : [];
  },
  normalise: ({ choices, options, ...rest }) => ({
    ...rest,
    options: Array.isArray(options) && options.length > 0 ? options : choices,
  }),
};

const multipleOptionsSchema = z.looseObject({
  question: text.optional(),
  choices: optionList.optional(),
  options: optionList.optional(),
  subheading: text.optional(),
  isMulti: z.boolean().optional(),
});
const normaliseMultipleOptions =
  (defaults: Content = {}) =>
  ({ choices, options, ...rest }: Content): Content => {
    const merged: Content = { ...defaults, ...rest };
    const list = Array.isArray(choices) && choices.length > 0 ? choices : options;
    if (list !== undefined) merged.choices = list;
    return merged;
  };

// ---------------------------------------------------------------- schedulers

const calendarUrlMissing = (type: string) =>
  `${type} requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')`;

const scheduler: CatalogueEntry = {
  schema: z.looseObject({
    dataUrl: httpUrl.optional(),
    url: httpUrl.optional(),
    calendarUrl: httpUrl.optional(),
    message: text.optional(),
    calendarType: z.enum(CALENDAR_PROVIDERS).optional(),
    prefillEmail: z.boolean().optional(),
  }),
  rules: (raw, type) =>
    raw.dataUrl === undefined && raw.url === undefined && raw.calendarUrl === undefined
      ? [{ path: [], message: calendarUrlMissing(type) }]
      : [],
  normalise: ({ dataUrl, url, calendarUrl, ...rest }, type) => {
    const out: Content = { ...rest, dataUrl: dataUrl ?? url ?? calendarUrl };
    // `CalendlyScreen` means Calendly unless calendarType says otherwise.
    const provider = providerOfScreenType.get(type);
    if (out.calendarType === undefined && provider) out.calendarType = provider;
    return out;
  },
};

const calendarSchema = z.looseObject({
  name: shortText,
  dataUrl: httpUrl.optional(),
  url: httpUrl.optional(),
});
const calendarHasUrl = (c: unknown) => isObject(c) && (c.dataUrl !== undefined || c.url !== undefined);
const normaliseCalendar = ({ url, dataUrl, ...rest }: Content) => ({ ...rest, dataUrl: dataUrl ?? url });

const dynamicScheduler: CatalogueEntry = {
  schema: z.looseObject({
    defaultCalendar: calendarSchema.optional(),
    calendarType: z.enum(CALENDAR_PROVIDERS).optional(),
    calendars: z.array(calendarSchema).max(LIMITS.maxOptions).optional(),
    message: text.optional(),
    prefillEmail: z.boolean().optional(),
  }),
  rules: (raw) => {
    if (raw.defaultCalendar === undefined) {
      return [{ path: [], message: "DynamicScheduler requires a defaultCalendar with a calendar URL (via 'dataUrl' or 'url')" }];
    }
    const problems: Problem[] = [];
    if (isObject(raw.defaultCalendar) && !calendarHasUrl(raw.defaultCalendar)) {
      problems.push({ path: ['defaultCalendar'], message: "defaultCalendar requires a calendar URL (via 'dataUrl' or 'url')" });
    }
    if (Array.isArray(raw.calendars)) {
      raw.calendars.forEach((calendar, index) => {
        if (isObject(calendar) && !calendarHasUrl(calendar)) {
          problems.push({ path: ['calendars', index], message: "a calendar requires a calendar URL (via 'dataUrl' or 'url')" });
        }
      });
    }
    return problems;
  },
  normalise: ({ defaultCalendar, calendars, ...rest }) => {
    const out: Content = { ...rest, defaultCalendar: normaliseCalendar(defaultCalendar as Content) };
    if (Array.isArray(calendars)) out.calendars = (calendars as Content[]).map(normaliseCalendar);
    return out;
  },
};

// ---------------------------------------------------------------- buttons and text

const nextButton: CatalogueEntry = {
  schema: z.looseObject({ label: shortText.optional(), buttonText: shortText.optional() }),
  normalise: ({ label, buttonText, ...rest }) => withDefined(rest, { label: label ?? buttonText }),
};

const nextBackButtons: CatalogueEntry = {
  schema: z.looseObject({
    nextLabel: shortText.optional(),
    backLabel: shortText.optional(),
    nextButtonText: shortText.optional(),
    backButtonText: shortText.optional(),
  }),
  normalise: ({ nextLabel, backLabel, nextButtonText, backButtonText, ...rest }) =>
    withDefined(rest, { nextLabel: nextLabel ?? nextButtonText, backLabel: backLabel ?? backButtonText }),
};

const inputSchema = z.looseObject({
  question: text.optional(),
  placeholder: shortText.optional(),
  required: z.boolean().optional(),
  maxLength: z.number().int().min(1).max(LIMITS.maxTextLength).optional(),
});

const loose = (shape: z.ZodRawShape = {}): CatalogueEntry => ({ schema: z.looseObject(shape) });

/** Every accepted component type. An unknown type is a 400. */
export const COMPONENT_CATALOGUE: Readonly<Record<string, CatalogueEntry>> = {
  ShortInput: { schema: inputSchema },
  LongInput: { schema: inputSchema },
  IdentityInfo: identityInfo,
  Dropdown: dropdown,
  MultipleOptionsQuestion: { schema: multipleOptionsSchema, normalise: normaliseMultipleOptions() },
  MultipleChoiceSingleAnswer: {
    schema: multipleOptionsSchema,
    normalise: normaliseMultipleOptions({ isMulti: false }),
    storedType: 'MultipleOptionsQuestion',
  },
  MultipleChoiceQuestion: {
    schema: multipleOptionsSchema,
    normalise: normaliseMultipleOptions(),
    storedType: 'MultipleOptionsQuestion',
  },
  Scheduler: scheduler,
  ...Object.fromEntries(PROVIDER_SCREEN_TYPES.map((type) => [type, scheduler])),
  DynamicScheduler: dynamicScheduler,
  NextButton: nextButton,
  NextBackButtons: nextBackButtons,
  Header: loose({ title: text.optional(), subheading: text.optional() }),
  Disclaimer: loose({ text: text.optional(), checkboxLabel: shortText.optional(), required: z.boolean().optional() }),
  EmailForm: loose({ question: text.optional(), placeholder: shortText.optional(), blockPersonalEmails: z.boolean().optional() }),
  FileUploader: loose({ question: text.optional() }),
  GraphicOptions: loose({
    question: text.optional(),
    options: z
      .array(z.looseObject({ label: shortText.optional(), value: shortText.optional(), imageUrl: httpUrl.optional() }))
      .max(LIMITS.maxOptions)
      .optional(),
  }),
  PasswordInput: loose({ question: text.optional(), placeholder: shortText.optional() }),
  PasswordCreatorInput: loose({ question: text.optional(), placeholder: shortText.optional() }),
  Recaptcha: loose({ siteKey: shortText.optional() }),
  TurnstileWidget: loose({ siteKey: shortText.optional() }),
  AiChatbot: loose(),
};

export const COMPONENT_TYPES = Object.keys(COMPONENT_CATALOGUE);
/** Types that may appear in a stored form (older names are stored under their current name). */
export const STORED_COMPONENT_TYPES = COMPONENT_TYPES.filter((type) => !COMPONENT_CATALOGUE[type]!.storedType);

// ---------------------------------------------------------------- request shapes

/** A component after validation: its stored type and normalised content (no id yet). */
export interface ComponentDraft {
  type: string;
  content: Content;
}

const componentSchema = z
  .looseObject({
    // Checked in the transform below (so every problem is reported with its path); described for the OpenAPI document.
    type: z.unknown().meta({ description: `The component type, one of: ${COMPONENT_TYPES.join(', ')}.`, examples: ['ShortInput'] }),
    content: z.unknown().meta({ description: 'An object whose fields depend on `type` (README "Components").', examples: [{ question: 'Your role?' }] }),
  })
  .transform((component, ctx): ComponentDraft => {
  const { type, content } = component;
  let failed = false;
  const fail = (path: PropertyKey[], message: string) => {
    failed = true;
    ctx.addIssue({ code: 'custom', path, message, input: component });
  };
  const entry = typeof type === 'string' && Object.hasOwn(COMPONENT_CATALOGUE, type) ? COMPONENT_CATALOGUE[type] : undefined;
  if (typeof type !== 'string') fail(['type'], 'Component type must be a string');
  else if (!entry) fail(['type'], `Unknown component type "${type}"`);
  if (!isObject(content)) fail(['content'], 'Component content must be an object');
  if (!entry || !isObject(content) || typeof type !== 'string') return z.NEVER;

  const parsed = entry.schema.safeParse(content);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fail(['content', ...issue.path], issue.message);
  }
  for (const problem of entry.rules?.(content, type) ?? []) fail(['content', ...problem.path], problem.message);
  if (failed || !parsed.success) return z.NEVER;
  return {
    type: entry.storedType ?? type,
    content: entry.normalise ? entry.normalise(parsed.data, type) : parsed.data,
  };
});

const stepSchema = z.object({
  name: shortText.min(1, 'A step needs a name'),
  components: z
    .array(componentSchema)
    .min(1, 'A step needs at least 1 component')
    .max(LIMITS.maxComponentsPerStep, `A step may have at most ${LIMITS.maxComponentsPerStep} components`),
});
export type StepDraft = z.output<typeof stepSchema>;

const stepsSchema = (min: number) =>
  z
    .array(stepSchema)
    .min(min, `A form needs at least ${min} step${min === 1 ? '' : 's'}`)
    .max(LIMITS.maxSteps, `A form may have at most ${LIMITS.maxSteps} steps`);

const formName = z.string().trim().min(1, 'name must not be empty').max(LIMITS.maxNameLength);

/** The body of `POST /api/v1/environments/{environmentId}/forms/generate`, and `generateForm`'s input. */
export const generateFormInputSchema = z.object({
  sourceFormId: z.string().min(1, 'sourceFormId must not be empty').max(LIMITS.maxNameLength),
  name: formName,
  steps: stepsSchema(2),
});
export type GenerateFormInput = z.output<typeof generateFormInputSchema>;

/** The steps of an imported template form: the same shape, but one step is enough. */
export const importStepsSchema = stepsSchema(1);
export const importFormNameSchema = formName;

// ---------------------------------------------------------------- stored shape

export interface StoredComponent {
  /** Stable id; the `questionId` of this component's answers. */
  id: string;
  type: string;
  content: Content;
}
export interface StoredStep {
  id: string;
  name: string;
  components: StoredComponent[];
}

/** A validation problem as the API reports it. */
export interface FieldError {
  message: string;
  path: (string | number)[];
}

export function toFieldErrors(issues: readonly { message: string; path?: readonly PropertyKey[] | undefined }[]): FieldError[] {
  return issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === 'number' ? segment : String(segment))),
  }));
}

function isObject(value: unknown): value is Content {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withDefined(base: Content, extra: Content): Content {
  const out = { ...base };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) out[key] = value;
  return out;
}
