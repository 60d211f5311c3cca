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
import { localeSchema } from '../i18n/locales.ts';


// ---------------------------------------------------------------- request shapes

/**
 * The id a step or component of an update keeps (`GET /api/v1/forms/{formId}` shows them): answers stay
 * under the same questionId across versions. Generate and import give every step and component a new id
 * and ignore one given; whether an id belongs to the form is the update's check (forms.service.ts).
 */
const keptId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'An id is 1 to 64 letters, digits, _ or -')
  .optional()
  .meta({ description: 'Update only: the id of a step or component of this form to keep (its answers keep their questionId). Left out: a new one. Generate ignores it.' });

/** A component after validation: its stored type and normalised content, and the id an update keeps. */
export interface ComponentDraft {
  id?: string | undefined;
  type: string;
  content: Content;
}

const componentSchema = z
  .looseObject({
    id: keptId,
    // Checked in the transform below (so every problem is reported with its path); described for the OpenAPI document.
    type: z.unknown().meta({ description: `The component type, one of: ${COMPONENT_TYPES.join(', ')}.`, examples: [COMPONENT_TYPES[0]] }),
    content: z.unknown().meta({ description: 'An object whose fields depend on `type` (docs/components.md).', examples: [{ question: 'Your role?' }] }),
  })
  .transform((component, ctx): ComponentDraft => {
  const { id, type, content } = component;
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
    ...(id === undefined ? {} : { id }),
    type: entry.storedType ?? type,
    content: entry.normalise ? entry.normalise(parsed.data, type) : parsed.data,
  };
});

const stepSchema = z.object({
  id: keptId,
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

/** Most hidden fields a form declares. */
export const MAX_HIDDEN_FIELDS = 20;
const HIDDEN_FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The names of the values a respondent brings in the URL or through the JSON API: distinct, at most 20. */
export const hiddenFieldsSchema = z
  .array(z.string().regex(HIDDEN_FIELD_NAME, 'A hidden field name is a letter or _ followed by up to 63 letters, digits or _'))
  .max(MAX_HIDDEN_FIELDS, `A form may have at most ${MAX_HIDDEN_FIELDS} hidden fields`)
  .superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (names.indexOf(name) !== index) ctx.addIssue({ code: 'custom', path: [index], message: `Hidden field "${name}" is declared twice` });
    });
  })
  .meta({ description: `Names of values respondents bring in the form's URL (\`/s/<id>?plan=pro\`) or through the JSON API; at most ${MAX_HIDDEN_FIELDS}.`, examples: [['utm_source', 'plan']] });

/** The body of `POST /api/v1/environments/{environmentId}/forms/generate`, and `generateForm`'s input. */
export const generateFormInputSchema = z.object({
  sourceFormId: z.string().min(1, 'sourceFormId must not be empty').max(LIMITS.maxNameLength),
  name: formName,
  steps: stepsSchema(2),
  /** The language of the page's own words; null or left out: English. */
  locale: localeSchema.nullish(),
  hiddenFields: hiddenFieldsSchema.optional(),
});
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
  .strictObject(Object.fromEntries(Object.entries(definitionFields).map(([field, schema]) => [field, leftOutStays(schema)])) as {
    [K in keyof typeof definitionFields]: z.ZodOptional<(typeof definitionFields)[K]>;
  })
  .superRefine((input, ctx) => {
    if (Object.values(input).every((value) => value === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Give at least one of ${Object.keys(definitionFields).join(', ')}` });
    }
  });
export type UpdateFormInput = z.output<typeof updateFormInputSchema>;

/** The definition fields an update may change (its body's fields). */
export const UPDATABLE_FIELDS = Object.keys(definitionFields) as (keyof UpdateFormInput)[];

/** The steps of an imported template form: the same shape, but one step is enough. */
export const importStepsSchema = stepsSchema(1);
export const importFormNameSchema = formName;
/** A form's `locale` (generate, import and update share it). */
export const formLocaleSchema = localeSchema.nullish();
