/**
 * The page's form fields and the answers they carry. Each component's fields are named
 * `c.<componentId>` (and `c.<componentId>.<part>` for parts: IdentityInfo keys, the dial-code
 * country, "Other" text, password confirmation, booking details). A step's fields become answers in
 * the JSON API's answer shape (responses/shapes.ts), so the page and the API share every rule.
 */
import { isBookingType, type StoredComponent, type StoredStep } from '../forms/components.ts';
import { identityFields, isAnswerable, type StoredResponse } from '../responses/shapes.ts';
import { dialCountry } from './dial-codes.ts';

/** The value of the "Other" radio/checkbox of a MultipleOptionsQuestion. */
export const OTHER_CHOICE = '__other__';

export const fieldName = (component: StoredComponent, part?: string) => (part ? `c.${component.id}.${part}` : `c.${component.id}`);

/** The component of `step` a posted field name (`c.<componentId>[.<part>]`) belongs to. */
export function componentOfField(step: StoredStep, name: string): StoredComponent | undefined {
  const id = /^c\.([^.]+)(?:\.|$)/.exec(name)?.[1];
  return id === undefined ? undefined : step.components.find((component) => component.id === id);
}

/** A posted form: text fields only, each name with its values in the order sent. */
export type FormBody = Map<string, string[]>;

/** Something wrong with the posted fields themselves (not with the answer they carry). */
export interface FieldProblem {
  /** The field's name as posted. */
  name: string;
  message: string;
}

/** Reads a step's fields; a single-valued field sent more than once is a problem, not a guess. */
export class PostedFields {
  readonly problems: FieldProblem[] = [];
  constructor(private readonly body: FormBody) {}

  all(name: string): string[] {
    return this.body.get(name) ?? [];
  }

  one(name: string): string {
    const values = this.all(name);
    if (values.length > 1) this.problems.push({ name, message: 'This field was sent more than once' });
    return values[0] ?? '';
  }
}

/**
 * The answer a step's form fields give a component, in the API's answer shape; `undefined` when the
 * component takes no answer, or keeps its stored one (an empty password field on a revisited step).
 */
export function answerFromFields(component: StoredComponent, fields: PostedFields, stored: StoredResponse | undefined): unknown {
  const { type, content } = component;
  if (!isAnswerable(type)) return undefined;
  const name = fieldName(component);
  switch (type) {
    case 'IdentityInfo': {
      const answer: Record<string, string> = {};
      for (const field of identityFields(content)) {
        let value = fields.one(fieldName(component, field.key)).trim();
        if (field.key === 'phoneNumber' && field.includeDialCode && value !== '' && !value.startsWith('+')) {
          const country = dialCountry(fields.one(fieldName(component, 'phoneNumber.country'))) ?? dialCountry(field.defaultDialCodeCountry);
          if (country) value = `${country.dial} ${value}`;
        }
        answer[field.key] = value;
      }
      return answer;
    }
    case 'Dropdown':
      return content.isMulti === true ? fields.all(name).filter(Boolean) : fields.one(name);
    case 'MultipleOptionsQuestion': {
      const picked = fields.all(name);
      const selected = picked.filter((v) => v !== OTHER_CHOICE);
      return picked.includes(OTHER_CHOICE) ? { selected, other: fields.one(fieldName(component, 'other')) } : { selected };
    }
    case 'Disclaimer':
      return fields.one(name) !== '';
    case 'GraphicOptions': {
      const value = fields.one(name);
      return /^\d+$/.test(value) ? Number(value) : value;
    }
    case 'PasswordInput':
    case 'PasswordCreatorInput': {
      const password = fields.one(name);
      if (password === '' && stored) return undefined;
      return type === 'PasswordCreatorInput' ? { password, confirmation: fields.one(fieldName(component, 'confirmation')) } : password;
    }
    default:
      if (isBookingType(type)) {
        const booking: Record<string, unknown> = { eventScheduled: fields.one(fieldName(component, 'eventScheduled')) === 'true' };
        for (const key of ['uri', 'meetingTime', 'meetingEndTime']) {
          const value = fields.one(fieldName(component, key));
          if (value !== '') booking[key] = value;
        }
        return booking;
      }
      // ShortInput, LongInput, EmailForm, FileUploader
      return fields.one(name);
  }
}
