/**
 * The page's form fields and the answers they carry. Each component's fields are named
 * `c.<componentId>` (and `c.<componentId>.<part>` for parts: IdentityInfo keys, the dial-code
 * country, "Other" text, password confirmation, booking details). A step's fields become answers in
 * the JSON API's answer shape (responses/shapes.ts), so the page and the API share every rule.
 */
import { isBookingType, type StoredComponent } from '../forms/components.ts';
import { identityFields, isAnswerable, type StoredResponse } from '../responses/shapes.ts';
import { dialCountry } from './dial-codes.ts';

/** The value of the "Other" radio/checkbox of a MultipleOptionsQuestion. */
export const OTHER_CHOICE = '__other__';

export const fieldName = (component: StoredComponent, part?: string) => (part ? `c.${component.id}.${part}` : `c.${component.id}`);

export type FormBody = Record<string, string | File | (string | File)[]>;

function all(body: FormBody, name: string): string[] {
  const value = body[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string');
}
const one = (body: FormBody, name: string): string => all(body, name)[0] ?? '';

/**
 * The answer a step's form fields give a component, in the API's answer shape; `undefined` when the
 * component takes no answer, or keeps its stored one (an empty password field on a revisited step).
 */
export function answerFromFields(component: StoredComponent, body: FormBody, stored: StoredResponse | undefined): unknown {
  const { type, content } = component;
  if (!isAnswerable(type)) return undefined;
  const name = fieldName(component);
  switch (type) {
    case 'IdentityInfo': {
      const answer: Record<string, string> = {};
      for (const field of identityFields(content)) {
        let value = one(body, fieldName(component, field.key)).trim();
        if (field.key === 'phoneNumber' && field.includeDialCode && value !== '' && !value.startsWith('+')) {
          const country = dialCountry(one(body, fieldName(component, 'phoneNumber.country'))) ?? dialCountry(field.defaultDialCodeCountry);
          if (country) value = `${country.dial} ${value}`;
        }
        answer[field.key] = value;
      }
      return answer;
    }
    case 'Dropdown':
      return content.isMulti === true ? all(body, name).filter(Boolean) : one(body, name);
    case 'MultipleOptionsQuestion': {
      const picked = all(body, name);
      const selected = picked.filter((v) => v !== OTHER_CHOICE);
      return picked.includes(OTHER_CHOICE) ? { selected, other: one(body, fieldName(component, 'other')) } : { selected };
    }
    case 'Disclaimer':
      return one(body, name) !== '';
    case 'GraphicOptions': {
      const value = one(body, name);
      return /^\d+$/.test(value) ? Number(value) : value;
    }
    case 'PasswordInput':
    case 'PasswordCreatorInput': {
      const password = one(body, name);
      if (password === '' && stored) return undefined;
      return type === 'PasswordCreatorInput' ? { password, confirmation: one(body, fieldName(component, 'confirmation')) } : password;
    }
    default:
      if (isBookingType(type)) {
        const booking: Record<string, unknown> = { eventScheduled: one(body, fieldName(component, 'eventScheduled')) === 'true' };
        for (const key of ['uri', 'meetingTime', 'meetingEndTime']) {
          const value = one(body, fieldName(component, key));
          if (value !== '') booking[key] = value;
        }
        return booking;
      }
      // ShortInput, LongInput, EmailForm, FileUploader
      return one(body, name);
  }
}
