/**
 * The scheduler family: `Scheduler`, the `<Provider>Screen` types (`CalendlyScreen`, …) and
 * `DynamicScheduler` (several calendars to choose from) embed a provider's booking page. `url` and
 * `calendarUrl` are aliases of `dataUrl`. The answer is a boolean or `{eventScheduled, uri,
 * meetingTime, meetingEndTime, ownerEmails, guestEmails}`, stored with the same keys; never required.
 */
import { html } from 'hono/html';
import { z } from 'zod';
import { asBoolean as bool, asString as jsonStr, asStrings as strings } from '../graphql/json-fields.ts';
import { ANSWER_LIMITS, cellText, isEmail } from './answers.ts';
import { httpUrl, isHttpUrl, isObject, LIMITS, shortText, text, type Content, type ContentRules, type Problem } from './content.ts';
import { fieldName } from './fields.ts';
import { allErrorsOf, asObject, box, domId, errorText, inputValue, str, type Html, type StepPageInput } from './markup.ts';
import type { ComponentFields, ComponentModule } from './module.ts';
import { toFieldErrors } from '../errors.ts';
import { fieldless } from './conditions.ts';
import { localizeInstant, pageWords, type PageWords } from '../i18n/locales.ts';

const CALENDAR_PROVIDERS = ['Calendly', 'Cal', 'Hubspot', 'SavvyCal', 'RevenueHero', 'ReclaimAI', 'Clari', 'ChiliCal'] as const;
export type CalendarProvider = (typeof CALENDAR_PROVIDERS)[number];

/** `CalendlyScreen`, `CalScreen`, …: scheduler components named after their provider. */
const PROVIDER_SCREEN_TYPES = CALENDAR_PROVIDERS.map((p) => `${p}Screen` as const);
const providerOfScreenType = new Map<string, CalendarProvider>(CALENDAR_PROVIDERS.map((p) => [`${p}Screen`, p]));

// ---------------------------------------------------------------- content

const calendarUrlMissing = (type: string) => `${type} requires a calendar URL (via 'dataUrl', 'url', or 'calendarUrl')`;

const schedulerContent: ContentRules = {
  schema: z.looseObject({
    dataUrl: httpUrl.optional(),
    url: httpUrl.optional(),
    calendarUrl: httpUrl.optional(),
    message: text.optional(),
    calendarType: z.enum(CALENDAR_PROVIDERS).optional(),
    prefillEmail: z.boolean().optional(),
  }),
  rules: (raw, type) => (raw.dataUrl === undefined && raw.url === undefined && raw.calendarUrl === undefined ? [{ path: [], message: calendarUrlMissing(type) }] : []),
  normalise: ({ dataUrl, url, calendarUrl, ...rest }, type) => {
    const out: Content = { ...rest, dataUrl: dataUrl ?? url ?? calendarUrl };
    // `CalendlyScreen` means Calendly unless calendarType says otherwise.
    const provider = providerOfScreenType.get(type);
    if (out.calendarType === undefined && provider) out.calendarType = provider;
    return out;
  },
};

const calendarSchema = z.looseObject({ name: shortText, dataUrl: httpUrl.optional(), url: httpUrl.optional() });
const calendarHasUrl = (c: unknown) => isObject(c) && (c.dataUrl !== undefined || c.url !== undefined);
const normaliseCalendar = ({ url, dataUrl, ...rest }: Content) => ({ ...rest, dataUrl: dataUrl ?? url });

const dynamicSchedulerContent: ContentRules = {
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

// ---------------------------------------------------------------- answers

const isoDateTime = z.iso.datetime({ offset: true });
const schedulerAnswer = z.strictObject({
  eventScheduled: z.boolean({ error: 'eventScheduled must be a boolean' }),
  uri: httpUrl.optional(),
  meetingTime: isoDateTime.optional(),
  meetingEndTime: isoDateTime.optional(),
  ownerEmails: z.array(z.string().refine(isEmail, 'must be an e-mail address')).max(ANSWER_LIMITS.emailList).optional(),
  guestEmails: z.array(z.string().refine(isEmail, 'must be an e-mail address')).max(ANSWER_LIMITS.emailList).optional(),
});

// ---------------------------------------------------------------- markup

/** The calendars a scheduler embeds: one, or a DynamicScheduler's default and others (a plain scheduler's has no name). */
function calendarsOf(component: { type: string; content: Content }): Content[] {
  const { content } = component;
  return component.type === 'DynamicScheduler'
    ? [asObject(content.defaultCalendar), ...(Array.isArray(content.calendars) ? content.calendars.map(asObject) : [])]
    : [{ dataUrl: content.dataUrl }];
}

/** The embedded calendar's address: http(s) only, with the e-mail (and name) of earlier steps when asked. */
function calendarSrc(dataUrl: unknown, content: Content, ctx: Pick<StepPageInput, 'prefill' | 'host'>): string | undefined {
  if (typeof dataUrl !== 'string' || !isHttpUrl(dataUrl)) return undefined;
  const url = new URL(dataUrl);
  if (content.prefillEmail === true) {
    if (ctx.prefill.email) url.searchParams.set('email', ctx.prefill.email);
    if (ctx.prefill.name) url.searchParams.set('name', ctx.prefill.name);
  }
  if (content.calendarType === 'Calendly' || url.hostname === 'calendly.com' || url.hostname.endsWith('.calendly.com')) {
    url.searchParams.set('embed_domain', ctx.host);
    url.searchParams.set('embed_type', 'Inline');
  }
  return url.href;
}

/**
 * The note a booking shows: hidden until there is one (the page's script shows it when the calendar
 * reports one), with the meeting's time in the page's language when it is known; `data-booked-at` is
 * the sentence the script puts the time into, as the respondent's browser writes it in their time zone.
 */
function bookedNote(words: PageWords, locale: string, booking: Content): Html {
  const time = typeof booking.meetingTime === 'string' && !Number.isNaN(Date.parse(booking.meetingTime)) ? booking.meetingTime : undefined;
  const text = booking.eventScheduled === true && time ? words.meetingBookedAt(localizeInstant(locale, time)) : words.meetingBooked;
  return html`<p class="fl-note${booking.eventScheduled === true ? '' : ' fl-hidden'}" data-booked data-booked-at="${words.meetingBookedAt('{when}')}">${text}</p>`;
}

// ---------------------------------------------------------------- GraphQL

interface Calendar {
  name: string;
  dataUrl: string;
}

export const schedulers: ComponentModule = {
  texts: ['question', 'message'],
  types: {
    Scheduler: schedulerContent,
    ...Object.fromEntries(PROVIDER_SCREEN_TYPES.map((type) => [type, schedulerContent])),
    DynamicScheduler: dynamicSchedulerContent,
  },
  answer: {
    shapes: {
      answer: z.union([z.boolean(), schedulerAnswer]).meta({ description: 'Whether a meeting was booked, or the booking.' }),
      stored: schedulerAnswer.shape,
    },
    parse(_component, raw, problems) {
      if (raw === null || raw === undefined) return null;
      if (typeof raw === 'boolean') return { eventScheduled: raw };
      const parsed = schedulerAnswer.safeParse(raw);
      if (!parsed.success) {
        for (const { path, message } of toFieldErrors(parsed.error.issues)) problems.add(path, message);
        return null;
      }
      const out: Content = { eventScheduled: parsed.data.eventScheduled };
      for (const key of ['uri', 'meetingTime', 'meetingEndTime', 'ownerEmails', 'guestEmails'] as const) {
        if (parsed.data[key] !== undefined) out[key] = parsed.data[key];
      }
      return out;
    },
    fromFields(component, fields) {
      const booking: Record<string, unknown> = { eventScheduled: fields.one(fieldName(component, 'eventScheduled')) === 'true' };
      for (const key of ['uri', 'meetingTime', 'meetingEndTime']) {
        const value = fields.one(fieldName(component, key));
        if (value !== '') booking[key] = value;
      }
      return booking;
    },
    toAnswer(_component, response) {
      const { type: _t, componentShapeVersion: _v, headline: _h, leadAttribute: _l, ...rest } = response;
      return rest;
    },
    isRequired: () => false,
  },
  headline: ({ content }) => (typeof content.message === 'string' ? content.message : typeof content.question === 'string' ? content.question : 'Book a meeting'),
  frameOrigins(component) {
    const origins: string[] = [];
    for (const { dataUrl } of calendarsOf(component)) if (typeof dataUrl === 'string' && isHttpUrl(dataUrl)) origins.push(new URL(dataUrl).origin);
    return origins;
  },
  render(component, ctx) {
    const { content } = component;
    const dynamic = component.type === 'DynamicScheduler';
    const words = pageWords(ctx.form.locale);
    const sources = calendarsOf(component)
      .map((calendar) => ({ name: str(calendar.name) ?? words.calendar, src: calendarSrc(calendar.dataUrl, content, ctx) }))
      .filter((calendar): calendar is { name: string; src: string } => calendar.src !== undefined);
    const first = sources[0];
    const message = str(content.message);
    const booking = asObject(ctx.values.get(component.id));
    const hidden = (name: string, value: string) => html`<input type="hidden" name="${fieldName(component, name)}" data-booking="${name}" value="${value}">`;
    const picker =
      dynamic && sources.length > 1
        ? html`<select class="fl-input fl-hidden" data-calendar-select aria-label="${words.calendar}">${sources.map((s) => html`<option data-src="${s.src}">${s.name}</option>`)}</select>`
        : '';
    const messages = allErrorsOf(ctx, component);
    return box(
      component,
      messages.length > 0,
      html`${message ? html`<p class="fl-question">${message}</p>` : ''}${picker}${
        first
          ? html`<iframe class="fl-calendar-frame" src="${first.src}" title="${words.calendarTitle(str(content.calendarType))}" loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe><a class="fl-calendar-link" href="${first.src}" target="_blank" rel="noopener noreferrer">${words.openCalendar}</a>`
          : html`<p class="fl-note">${words.calendarUnavailable}</p>`
      }
${bookedNote(words, ctx.form.locale, booking)}
${hidden('eventScheduled', booking.eventScheduled === true ? 'true' : 'false')}${hidden('uri', inputValue(booking.uri))}${hidden('meetingTime', inputValue(booking.meetingTime))}${hidden('meetingEndTime', inputValue(booking.meetingEndTime))}${errorText(domId(component), messages)}`,
      { className: ' fl-calendar', scheduler: true },
    );
  },
  graphql(kit) {
    const CalendarProviderEnum = kit.builder.enumType('CalendarProvider', {
      description: 'Scheduling providers a Scheduler component can embed.',
      values: CALENDAR_PROVIDERS,
    });
    const CalendarRef = kit.builder.objectRef<Calendar>('Calendar').implement({
      fields: (t) => ({ name: t.exposeString('name'), dataUrl: t.exposeString('dataUrl') }),
    });
    const calendarType = (t: ComponentFields) =>
      t.field({
        type: CalendarProviderEnum,
        nullable: true,
        resolve: (c) => CALENDAR_PROVIDERS.find((provider) => provider === c.content.calendarType) ?? null,
      });
    const scheduler = kit.component('Scheduler', 'An embedded scheduling page (`Scheduler` and every `<Provider>Screen` type).', (t) => ({
      dataUrl: t.string({ resolve: (c) => jsonStr(c.content.dataUrl) ?? '' }),
      message: kit.text(t, 'message'),
      calendarType: calendarType(t),
      prefillEmail: kit.bool(t, 'prefillEmail'),
    }));
    const answer = kit.answer('SchedulerAnswer', 'Answer to a scheduler (`Scheduler`, `<Provider>Screen`, `DynamicScheduler`).', (t) => ({
      eventScheduled: t.boolean({ nullable: true, resolve: (r) => bool(r.eventScheduled) }),
      uri: t.string({ nullable: true, description: "The provider's URI of the booked event.", resolve: (r) => jsonStr(r.uri) }),
      meetingTime: t.string({ nullable: true, description: 'ISO 8601.', resolve: (r) => jsonStr(r.meetingTime) }),
      meetingEndTime: t.string({ nullable: true, description: 'ISO 8601.', resolve: (r) => jsonStr(r.meetingEndTime) }),
      ownerEmails: t.stringList({ resolve: (r) => strings(r.ownerEmails) }),
      guestEmails: t.stringList({ resolve: (r) => strings(r.guestEmails) }),
    }));
    const schedulerTypes = ['Scheduler', ...PROVIDER_SCREEN_TYPES];
    return {
      components: {
        ...Object.fromEntries(schedulerTypes.map((type) => [type, scheduler])),
        DynamicScheduler: kit.component('DynamicScheduler', 'A scheduler choosing among several calendars.', (t) => ({
          defaultCalendar: t.field({ type: CalendarRef, resolve: (c) => c.content.defaultCalendar as Calendar }),
          calendars: t.field({ type: [CalendarRef], resolve: (c) => (c.content.calendars as Calendar[] | undefined) ?? [] }),
          calendarType: calendarType(t),
          message: kit.text(t, 'message'),
        })),
      },
      answers: Object.fromEntries([...schedulerTypes, 'DynamicScheduler'].map((type) => [type, answer])),
    };
  },
  export: {
    cell(response) {
      if (response.eventScheduled !== true) return response.eventScheduled === false ? 'false' : '';
      return cellText(response.meetingTime) || 'true';
    },
  },
  recall: (_shown, response, writtenIn) =>
    writtenIn !== undefined && response.eventScheduled === true && typeof response.meetingTime === 'string' ? localizeInstant(writtenIn, response.meetingTime) : undefined,
  conditions: {
    // Whether a meeting was booked.
    subject: fieldless(() => ({ kind: 'boolean' })),
    value: (_component, response) => (typeof response.eventScheduled === 'boolean' ? response.eventScheduled : undefined),
  },
};
