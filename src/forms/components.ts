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

/** A component after validation: its stored type and normalised content (no id yet). */
export interface ComponentDraft {
  type: string;
  content: Content;
}

const componentSchema = z
  .looseObject({
    // Checked in the transform below (so every problem is reported with its path); described for the OpenAPI document.
    type: z.unknown().meta({ description: `The component type, one of: ${COMPONENT_TYPES.join(', ')}.`, examples: [COMPONENT_TYPES[0]] }),
    content: z.unknown().meta({ description: 'An object whose fields depend on `type` (docs/components.md).', examples: [{ question: 'Your role?' }] }),
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
  /** The language of the page's own words; null or left out: English. */
  locale: localeSchema.nullish(),
});
export type GenerateFormInput = z.output<typeof generateFormInputSchema>;

/** The steps of an imported template form: the same shape, but one step is enough. */
export const importStepsSchema = stepsSchema(1);
export const importFormNameSchema = formName;
/** A form's `locale` (generate, import and update share it). */
export const formLocaleSchema = localeSchema.nullish();
