/**
 * The generate/import input schema: steps of catalogue components. Each component type's content
 * rules live in its module (src/components/, listed by catalogue.ts); this file checks a request's
 * steps against them. GraphQL, REST and the CLI all validate through `generateFormInputSchema` /
 * `importFormInputSchema`.
 *
 * Validation reports every problem at once, each with a path from the request body's root
 * (e.g. `["steps", 0, "components", 1, "content"]`).
 */
import { z } from 'zod';
import { COMPONENT_CATALOGUE, COMPONENT_TYPES } from '../components/catalogue.ts';
import { isObject, LIMITS, shortText, type Content } from '../components/content.ts';
import { canonicalLocale, languageOf, localeSchema, SUPPORTED_LANGUAGES } from '../i18n/locales.ts';
import {
  checkTextLanguages,
  contentIn,
  isTextObject,
  markTextObjects,
  MAX_FORM_LANGUAGES,
  placeTextObjects,
  textIn,
  textObjectProblems,
  unmarkMessage,
  type TextObject,
} from './translations.ts';
import { checkNotifications, notificationsSchema } from '../notifications/settings.ts';
import type { StepLogic } from '../components/conditions.ts';
import { optionScoreProblems } from '../components/scores.ts';
import { checkQuotas, limitsSchema, quotasSchema } from './limits.ts';
import { checkRecall } from './recall.ts';
import { checkFormLogic, hiddenFieldsSchema, keySchema, logicSchema, unreadComponents, variablesSchema } from './logic.ts';

// ---------------------------------------------------------------- request shapes

/**
 * The id a step or component of an update keeps (`GET /api/v1/forms/{formId}` shows them): answers stay
 * under the same questionId across versions. Generate and import give every step and component a new id
 * and ignore one given; whether an id belongs to the form is the update's check (forms.service.ts).
 */
const keptId = z
  .string()
  .regex(/^[\w-]{1,64}$/, 'An id is 1 to 64 letters, digits, _ or -')
  .optional()
  .meta({ description: 'Update only: the id of a step or component of this form to keep (its answers keep their questionId). Left out: a new one. Generate ignores it.' });

/** A component after validation: its stored type and normalised content, the id an update keeps, and its key if given. */
export interface ComponentDraft {
  id?: string | undefined;
  type: string;
  content: Content;
  key?: string;
}

const componentSchema = z
  .looseObject({
    id: keptId,
    // Checked in the transform below (so every problem is reported with its path); described for the OpenAPI document.
    type: z.unknown().meta({ description: `The component type, one of: ${COMPONENT_TYPES.join(', ')}.`, examples: [COMPONENT_TYPES[0]] }),
    content: z.unknown().meta({ description: 'An object whose fields depend on `type` (docs/components.md).', examples: [{ question: 'Your role?' }] }),
    key: z
      .unknown()
      .optional()
      .meta({ description: "The name conditions use, unique across the form's components (docs/logic.md).", examples: ['company_size'] }),
  })
  .transform((component, ctx): ComponentDraft => {
    const { id, type, content } = component;
    const key = component.key === undefined || component.key === null ? undefined : keySchema.safeParse(component.key);
    if (key && !key.success) for (const issue of key.error.issues) ctx.addIssue({ code: 'custom', path: ['key'], message: issue.message, input: component });
    let failed = false;
    const fail = (path: PropertyKey[], message: string) => {
      failed = true;
      ctx.addIssue({ code: 'custom', path, message, input: component });
    };
    const entry = typeof type === 'string' && Object.hasOwn(COMPONENT_CATALOGUE, type) ? COMPONENT_CATALOGUE[type] : undefined;
    if (typeof type !== 'string') fail(['type'], 'Component type must be a string');
    else if (!entry) fail(['type'], `Unknown component type "${type}"`);
    if (!isObject(content)) fail(['content'], 'Component content must be an object');
    // What failed is reported; the form-wide logic check still learns the component's key (its content is not trusted).
    const unread = (): ComponentDraft => {
      const draft = { type: typeof type === 'string' ? type : '', content: {}, ...(key?.success ? { key: key.data } : {}) };
      unreadComponents.add(draft);
      return draft;
    };
    if (!entry || !isObject(content) || typeof type !== 'string') return unread();

    // Texts given per language are checked as one marker string each, and put back where normalising moved them.
    const { marked, objects } = markTextObjects(content);
    for (const object of objects) for (const problem of textObjectProblems(object.value)) fail(['content', ...object.path, ...problem.path], problem.message);
    const parsed = entry.schema.safeParse(marked);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) fail(['content', ...issue.path], unmarkMessage(issue.message, objects));
    }
    for (const problem of entry.rules?.(marked, type) ?? []) fail(['content', ...problem.path], unmarkMessage(problem.message, objects));
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a key that failed its schema leaves the component unread
    if (failed || !parsed.success || (key && !key.success)) return unread();
    const storedType = entry.storedType ?? type;
    const placed = placeTextObjects(entry.normalise ? entry.normalise(parsed.data, type) : parsed.data, storedType, objects);
    for (const problem of placed.problems) fail(['content', ...problem.path], problem.message);
    if (placed.problems.length > 0) return unread();
    // Scores name the options as stored (a normalised content, each option in its first language's words).
    const scoreProblems = optionScoreProblems(storedType, contentIn(placed.content, storedType, undefined));
    for (const problem of scoreProblems) fail(['content', ...problem.path], problem.message);
    if (scoreProblems.length > 0) return unread();
    return {
      ...(id === undefined ? {} : { id }),
      type: storedType,
      content: placed.content,
      ...(key ? { key: key.data } : {}),
    };
  });

/** A text a respondent reads, given as `base` allows or as one text per language (`{"en": "…", "de": "…"}`). */
const localized = (base: z.ZodString, maxLength: number) =>
  z
    .unknown()
    .transform((value, ctx): string | TextObject => {
      if (isTextObject(value)) {
        for (const problem of textObjectProblems(value, maxLength)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, input: value });
        return value;
      }
      const parsed = base.safeParse(value);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, input: value });
      return z.NEVER;
    })
    .meta({ description: 'A string in the default language, or one text per language of the form: `{"en": "Contact", "de": "Kontakt"}`.', examples: ['Contact'] });

/** A form's `languages`: the default and the others, each a built-in language, at most MAX_FORM_LANGUAGES in all. */
const LANGUAGE_MESSAGE = `must be one of the built-in languages: ${SUPPORTED_LANGUAGES.join(', ')}`;
const languageCode = z.string(LANGUAGE_MESSAGE).refine((value) => (SUPPORTED_LANGUAGES as readonly string[]).includes(value), LANGUAGE_MESSAGE);
export const languagesSchema = z
  .strictObject({
    default: languageCode,
    others: z
      .array(languageCode)
      .max(MAX_FORM_LANGUAGES - 1, `A form may have at most ${MAX_FORM_LANGUAGES} languages`)
      .default([]),
  })
  .superRefine((languages, ctx) => {
    languages.others.forEach((language, index) => {
      if (language === languages.default || languages.others.indexOf(language) !== index)
        ctx.addIssue({ code: 'custom', path: ['others', index], message: `"${language}" is listed twice` });
    });
  })
  .meta({
    description: 'The languages of a multilingual form: the default (its texts given as strings) and the others (docs/languages.md).',
    examples: [{ default: 'en', others: ['de', 'ar'] }],
  });

const stepSchema = z.object({
  id: keptId,
  name: localized(shortText.min(1, 'A step needs a name'), LIMITS.maxNameLength),
  key: keySchema
    .nullish()
    .transform((key) => key ?? undefined)
    .meta({ description: 'Unique in the form; default `step_<n>` (its 1-based position). What `goTo` and `next` name.', examples: ['qualify'] }),
  components: z
    .array(componentSchema)
    .min(1, 'A step needs at least 1 component')
    .max(LIMITS.maxComponentsPerStep, `A step may have at most ${LIMITS.maxComponentsPerStep} components`),
  completion: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined)
    .meta({ description: 'Reaching this step finishes the response; it is shown as the final screen. No questions on it.' }),
  invalid: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined)
    .meta({ description: 'Reaching this step marks the response invalid (status 5) and ends it; shown as the final screen. No questions on it.' }),
  logic: logicSchema.optional(),
});
/** A step after validation (no ids yet). */
export interface StepDraft {
  id?: string | undefined;
  name: string | TextObject;
  key?: string | undefined;
  components: ComponentDraft[];
  completion?: boolean | undefined;
  invalid?: boolean | undefined;
  logic?: StepLogic | undefined;
}
// The schema's output is a StepDraft.
const _stepDraft: (step: z.output<typeof stepSchema>) => StepDraft = (step) => step;

const stepsSchema = (min: number) =>
  z
    .array(stepSchema)
    .min(min, `A form needs at least ${min} step${min === 1 ? '' : 's'}`)
    .max(LIMITS.maxSteps, `A form may have at most ${LIMITS.maxSteps} steps`);

const formName = localized(z.string().trim().min(1, 'name must not be empty').max(LIMITS.maxNameLength), LIMITS.maxNameLength);

// Left out when not given, so a request without logic hashes (Idempotency-Key) as it did before.
const hiddenFields = hiddenFieldsSchema.nullish().transform((names) => names ?? undefined);
const variables = variablesSchema.nullish().transform((list) => list ?? undefined);

/**
 * The references between steps, components and hidden fields (src/forms/logic.ts), checked even when
 * other parts failed, so that every problem is reported at once.
 */
const withLogicChecks = <T extends z.ZodType<{ steps?: unknown; hiddenFields?: unknown; variables?: unknown }>>(schema: T) =>
  schema.superRefine(
    (input: unknown, ctx) => {
      // Runs even when other checks failed (every problem at once), so the input may not be an object at all.
      if (typeof input === 'object' && input !== null) {
        const report = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message, input });
        const languages = declaredLanguages(input);
        if (languages) checkTextLanguages(input, languages, report);
        checkLocaleOfLanguages(input, report);
        const inDefault = { ...input, steps: stepsIn((input as { steps?: unknown }).steps, languages?.[0]) };
        checkFormLogic(inDefault, report);
        checkQuotas(inDefault, report);
        checkRecall(inDefault, report);
        checkNotifications(inDefault, report);
      }
    },
    { when: () => true },
  );

/**
 * The languages an input declares, the default first: its `languages`, else its `locale`'s language (and
 * English for neither); undefined when `languages` is given but not valid (reported where it is) or, for an
 * update (`partial`), when neither is given: the form's own are checked by the update.
 */
export function declaredLanguages(input: object, partial = false): string[] | undefined {
  const { languages, locale } = input as { languages?: unknown; locale?: unknown };
  if (languages !== undefined && languages !== null) {
    const parsed = languagesSchema.safeParse(languages);
    return parsed.success ? [parsed.data.default, ...parsed.data.others] : undefined;
  }
  if (typeof locale === 'string') return canonicalLocale(locale) ? [languageOf(locale)] : undefined;
  return partial ? undefined : ['en'];
}

/** A multilingual form's `locale`, when given, speaks its default language (`de-CH` for `de`). */
function checkLocaleOfLanguages(input: object, report: (path: (string | number)[], message: string) => void) {
  const { languages, locale } = input as { languages?: { default?: unknown } | null; locale?: unknown };
  if (typeof locale !== 'string' || typeof languages?.default !== 'string' || !canonicalLocale(locale)) return;
  if (languageOf(locale) !== languages.default) report(['locale'], `locale must be in the default language (${languages.default}), e.g. ${languages.default}; or leave it out`);
}

/** Steps (as given) with their text objects read in `language`: what the form-wide checks of logic and notifications read. */
export function stepsIn(steps: unknown, language: string | undefined): unknown {
  if (!Array.isArray(steps)) return steps;
  return (steps as unknown[]).map((step) => {
    if (typeof step !== 'object' || step === null) return step;
    const { name, components } = step as { name?: unknown; components?: unknown };
    const inLanguage = (component: unknown) =>
      isObject(component) && isObject(component.content) && typeof component.type === 'string'
        ? { ...component, content: contentIn(component.content, component.type, language) }
        : component;
    return { ...step, name: isTextObject(name) ? textIn(name, language) : name, components: Array.isArray(components) ? components.map(inLanguage) : components };
  });
}

/** The body of `POST /api/v1/environments/{environmentId}/forms/generate`, and `generateForm`'s input. */
export const generateFormInputSchema = withLogicChecks(
  z.object({
    sourceFormId: z.string().min(1, 'sourceFormId must not be empty').max(LIMITS.maxNameLength),
    name: formName,
    hiddenFields,
    variables,
    steps: stepsSchema(2),
    /** The language of the page's own words; null or left out: English (a multilingual form: its default language). */
    locale: localeSchema.nullish(),
    /** Several languages: null or left out, one (`locale`'s). */
    languages: languagesSchema.nullish(),
    /** Who hears of its responses by e-mail (docs/notifications.md); null or left out: nobody. */
    notifications: notificationsSchema,
    /** When it takes responses and how many; null or left out: always, without a limit. */
    limits: limitsSchema.nullish(),
    /** Caps on the finished responses meeting a condition; null or left out: none. */
    quotas: quotasSchema.optional(),
    /** Whether the final screen offers "Submit another response"; null or left out: it does not. */
    allowAnotherResponse: z.boolean().nullish(),
  }),
);
export type GenerateFormInput = z.output<typeof generateFormInputSchema>;

/**
 * The body of `PATCH /api/v1/forms/{formId}` and `updateForm`'s input: any of the definition fields of
 * generate's body, each checked by generate's own schema for that field (so whatever generate accepts,
 * an update accepts, with the same messages and paths); unknown fields are refused. Steps and components
 * may carry the `id` to keep. A rule that ties several fields together belongs in a check both run.
 */
const { sourceFormId: _sourceFormId, ...definitionFields } = generateFormInputSchema.shape;
/** A field left out of an update stays as it is: generate's default for it (if any) does not apply. */
const leftOutStays = (schema: z.ZodType) => (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault ? (schema.unwrap() as z.ZodType) : schema).optional();
export const updateFormInputSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(definitionFields).map(([field, schema]) => [field, leftOutStays(schema)])) as {
      [K in keyof typeof definitionFields]: z.ZodOptional<(typeof definitionFields)[K]>;
    },
  )
  .superRefine((input, ctx) => {
    if (Object.values(input).every((value: unknown) => value === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Give at least one of ${Object.keys(definitionFields).join(', ')}` });
    }
  });
export type UpdateFormInput = z.output<typeof updateFormInputSchema>;

/** The definition fields an update may change (its body's fields). */
export const UPDATABLE_FIELDS = Object.keys(definitionFields) as (keyof UpdateFormInput)[];

/** The steps of an imported template form: the same shape, but one step is enough. */
export const importStepsSchema = stepsSchema(1);
export const importHiddenFieldsSchema = hiddenFields;
export const importVariablesSchema = variables;
export { withLogicChecks };
export const importFormNameSchema = formName;
/** A form's `locale` (generate, import and update share it). */
export const formLocaleSchema = localeSchema.nullish();
