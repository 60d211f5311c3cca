import { describe, expect, it } from 'vitest';
import { generateFormInputSchema, importStepsSchema } from '../../src/forms/components.ts';
import { toFieldErrors } from '../../src/errors.ts';
import { IDENTITY_FIELD_KEYS } from '../../src/components/identity-info.ts';

const step = (components: unknown[], name = 'Step') => ({ name, components });
const body = (steps: unknown[]) => ({ sourceFormId: 'f1', name: 'Form', steps });
const filler = step([{ type: 'Header', content: { title: 'Hi' } }]);

/** Parses one component (in step 0 of a valid body) and returns its stored shape or the errors. */
function parseComponent(type: unknown, content: unknown) {
  const result = generateFormInputSchema.safeParse(body([step([{ type, content }]), filler]));
  return result.success ? { component: result.data.steps[0]!.components[0]!, errors: [] } : { component: undefined, errors: toFieldErrors(result.error.issues) };
}

const at = (...path: (string | number)[]) => ['steps', 0, 'components', 0, ...path];

describe('form shape', () => {
  it('rejects fewer than 2 steps, steps without components, and a missing or non-string name, all at once', () => {
    const result = generateFormInputSchema.safeParse({ sourceFormId: 'f1', name: 7, steps: [step([])] });
    expect(result.success).toBe(false);
    expect(toFieldErrors(result.error!.issues)).toEqual([
      { path: ['name'], message: expect.stringMatching(/string/) },
      { path: ['steps', 0, 'components'], message: 'A step needs at least 1 component' },
      { path: ['steps'], message: 'A form needs at least 2 steps' },
    ]);
    const missing = generateFormInputSchema.safeParse({ steps: [filler, filler] });
    expect(toFieldErrors(missing.error!.issues)).toEqual([
      { path: ['sourceFormId'], message: 'Required' },
      { path: ['name'], message: 'Required' },
    ]);
  });

  it('rejects a body that is not an object', () => {
    for (const value of [null, [], 'x', 3]) {
      const result = generateFormInputSchema.safeParse(value);
      expect(result.success).toBe(false);
      expect(toFieldErrors(result.error!.issues)[0]!.path).toEqual([]);
    }
  });

  it('allows a single step for imported templates', () => {
    expect(importStepsSchema.safeParse([filler]).success).toBe(true);
    expect(importStepsSchema.safeParse([]).success).toBe(false);
  });
});

describe('component catalogue', () => {
  it('rejects an uncatalogued or non-string type and non-object content', () => {
    expect(parseComponent('Carousel', {}).errors).toEqual([{ path: at('type'), message: 'Unknown component type "Carousel"' }]);
    expect(parseComponent(3, {}).errors).toEqual([{ path: at('type'), message: 'Component type must be a string' }]);
    for (const content of [null, [], 'text', 1]) {
      expect(parseComponent('ShortInput', content).errors).toEqual([{ path: at('content'), message: 'Component content must be an object' }]);
    }
  });

  it('accepts every catalogued type with minimal content', () => {
    const minimal: Record<string, unknown> = {
      IdentityInfo: { fields: [{ key: 'firstName', label: 'First name' }] },
      Dropdown: { options: ['a'] },
      Scheduler: { dataUrl: 'https://cal.com/x' },
      DynamicScheduler: { defaultCalendar: { name: 'Sales', url: 'https://calendly.com/s' } },
    };
    const types = [
      'ShortInput',
      'LongInput',
      'IdentityInfo',
      'Dropdown',
      'MultipleOptionsQuestion',
      'Scheduler',
      'NextButton',
      'Header',
      'Disclaimer',
      'EmailForm',
      'FileUploader',
      'GraphicOptions',
      'PasswordInput',
      'PasswordCreatorInput',
      'Recaptcha',
      'TurnstileWidget',
      'AiChatbot',
      'MultipleChoiceSingleAnswer',
      'MultipleChoiceQuestion',
      'NextBackButtons',
      'DynamicScheduler',
    ];
    for (const type of types) expect(parseComponent(type, minimal[type] ?? {}).errors, type).toEqual([]);
  });

  it('keeps unknown content keys of non-strict types as sent', () => {
    expect(parseComponent('ShortInput', { question: 'Q', custom: { a: 1 } }).component!.content).toEqual({ question: 'Q', custom: { a: 1 } });
  });
});

describe('IdentityInfo', () => {
  it('accepts only `fields` in content', () => {
    expect(parseComponent('IdentityInfo', { fields: [{ key: 'city', label: 'City' }], title: 'x' }).errors).toEqual([
      { path: at('content'), message: 'Unrecognized key: "title"' },
    ]);
  });

  it('accepts each of the 18 keys and rejects any other', () => {
    const fields = IDENTITY_FIELD_KEYS.map((key) => ({ key, label: key }));
    expect(parseComponent('IdentityInfo', { fields }).errors).toEqual([]);
    const { errors } = parseComponent('IdentityInfo', { fields: [{ key: 'email', label: 'E-mail' }] });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.path).toEqual(at('content', 'fields', 0, 'key'));
    expect(errors[0]!.message).toMatch(/Unknown IdentityInfo field key "email"/);
  });

  it('keeps every field option and checks revealAfter names another field', () => {
    const field = {
      key: 'phoneNumber',
      label: 'Phone',
      placeholder: '555',
      includeDialCode: true,
      defaultDialCodeCountry: 'us',
      blockPersonalEmails: false,
      revealAfter: 'emailAddress',
    };
    const { component } = parseComponent('IdentityInfo', { fields: [{ key: 'emailAddress', label: 'E-mail' }, field] });
    expect(component!.content.fields).toEqual([
      { key: 'emailAddress', label: 'E-mail' },
      { ...field, defaultDialCodeCountry: 'US' },
    ]);
    expect(parseComponent('IdentityInfo', { fields: [{ key: 'city', label: 'City', revealAfter: 'state' }] }).errors).toEqual([
      { path: at('content', 'fields', 0, 'revealAfter'), message: 'revealAfter must name another field of this IdentityInfo, got "state"' },
    ]);
    expect(
      parseComponent('IdentityInfo', {
        fields: [
          { key: 'city', label: 'a' },
          { key: 'city', label: 'b' },
        ],
      }).errors,
    ).toEqual([{ path: at('content', 'fields', 1, 'key'), message: 'Duplicate IdentityInfo field key "city"' }]);
  });

  it('normalises the older {type, name, label, required} field shape', () => {
    const { component } = parseComponent('IdentityInfo', {
      fields: [
        { type: 'email', name: 'emailAddress', label: 'E-mail', required: true },
        { type: 'text', name: 'phone', label: 'Phone' },
      ],
    });
    expect(component!.content.fields).toEqual([
      { key: 'emailAddress', label: 'E-mail', required: true },
      { key: 'phoneNumber', label: 'Phone' },
    ]);
    expect(parseComponent('IdentityInfo', { fields: [{ type: 'text', name: 'nickname', label: 'x' }] }).errors[0]!.path).toEqual(at('content', 'fields', 0, 'name'));
  });
});

describe('Dropdown and MultipleOptionsQuestion', () => {
  it('needs at least one option under options or choices, stored as options', () => {
    for (const content of [{}, { options: [] }, { choices: [] }]) {
      expect(parseComponent('Dropdown', content).errors).toEqual([{ path: at('content'), message: "Dropdown requires at least 1 option (via 'options' or 'choices')" }]);
    }
    expect(parseComponent('Dropdown', { choices: ['a', 'b'], isMulti: true }).component).toEqual({
      type: 'Dropdown',
      content: { options: ['a', 'b'], isMulti: true },
    });
  });

  it('stores MultipleOptionsQuestion options as choices, and older names as MultipleOptionsQuestion', () => {
    expect(parseComponent('MultipleOptionsQuestion', { options: ['x'] }).component!.content).toEqual({ choices: ['x'] });
    expect(parseComponent('MultipleChoiceSingleAnswer', { question: 'Q', choices: ['a'] }).component).toEqual({
      type: 'MultipleOptionsQuestion',
      content: { question: 'Q', choices: ['a'], isMulti: false },
    });
    expect(parseComponent('MultipleChoiceQuestion', { choices: ['a'] }).component!.type).toBe('MultipleOptionsQuestion');
  });
});

describe('schedulers', () => {
  it('requires a calendar URL, reported at content with the type in the message', () => {
    expect(parseComponent('CalendlyScreen', { message: 'Book' }).errors).toEqual([
      { path: at('content'), message: "CalendlyScreen requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')" },
    ]);
    expect(parseComponent('Scheduler', {}).errors[0]!.message).toBe("Scheduler requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')");
  });

  it('normalises url and calendarUrl to dataUrl, and the provider of <Provider>Screen into calendarType', () => {
    expect(parseComponent('HubspotScreen', { calendarUrl: 'https://meetings.hubspot.com/a', prefillEmail: true }).component).toEqual({
      type: 'HubspotScreen',
      content: { dataUrl: 'https://meetings.hubspot.com/a', calendarType: 'Hubspot', prefillEmail: true },
    });
    expect(parseComponent('CalendlyScreen', { url: 'https://cal.com/a', calendarType: 'Cal' }).component!.content).toEqual({
      dataUrl: 'https://cal.com/a',
      calendarType: 'Cal',
    });
  });

  it('accepts plain and IDN hosts, IPv4 and IPv6', () => {
    for (const dataUrl of ['https://calendly.com/a?x=1', 'https://xn--bcher-kva.example/', 'https://bücher.example/', 'http://127.0.0.1:8080/x', 'http://[::1]/x']) {
      expect(parseComponent('Scheduler', { dataUrl }).errors, dataUrl).toEqual([]);
    }
  });

  it('accepts the 8 providers and nothing else, and only http(s) URLs', () => {
    for (const calendarType of ['Calendly', 'Cal', 'Hubspot', 'SavvyCal', 'RevenueHero', 'ReclaimAI', 'Clari', 'ChiliCal']) {
      expect(parseComponent('Scheduler', { dataUrl: 'https://x.test', calendarType }).errors).toEqual([]);
    }
    expect(parseComponent('Scheduler', { dataUrl: 'https://x.test', calendarType: 'Outlook' }).errors[0]!.path).toEqual(at('content', 'calendarType'));
    for (const dataUrl of ['javascript:alert(1)', 'ftp://x.test/a', 'not a url', 'https://a;sandbox/x', "https://a'b.test/", 'https://*.test/']) {
      expect(parseComponent('Scheduler', { dataUrl }).errors).toEqual([{ path: at('content', 'dataUrl'), message: 'must be an http(s) URL' }]);
    }
  });

  it('DynamicScheduler needs a default calendar with a URL', () => {
    expect(parseComponent('DynamicScheduler', {}).errors[0]!.path).toEqual(at('content'));
    expect(parseComponent('DynamicScheduler', { defaultCalendar: { name: 'A' } }).errors[0]!.path).toEqual(at('content', 'defaultCalendar'));
    expect(
      parseComponent('DynamicScheduler', {
        defaultCalendar: { name: 'A', url: 'https://calendly.com/a' },
        calendars: [{ name: 'B', url: 'https://calendly.com/b' }],
      }).component!.content,
    ).toEqual({ defaultCalendar: { name: 'A', dataUrl: 'https://calendly.com/a' }, calendars: [{ name: 'B', dataUrl: 'https://calendly.com/b' }] });
  });
});

describe('buttons', () => {
  it('normalises NextButton buttonText to label and NextBackButtons aliases', () => {
    expect(parseComponent('NextButton', { buttonText: 'Go' }).component!.content).toEqual({ label: 'Go' });
    expect(parseComponent('NextBackButtons', { nextButtonText: 'Next', backButtonText: 'Back' }).component!.content).toEqual({
      nextLabel: 'Next',
      backLabel: 'Back',
    });
  });
});
