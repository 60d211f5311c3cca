/**
 * The hints the components write in the page's language: a Date's limits under the field (associated
 * with it through aria-describedby) and a scheduler's booked meeting, dates in the language's format.
 */
import { describe, expect, it } from 'vitest';
import { dateQuestion } from '../../src/components/date.ts';
import { schedulers } from '../../src/components/schedulers.ts';
import type { RenderContext } from '../../src/components/markup.ts';
import type { ComponentModule } from '../../src/components/module.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';

const contextIn = (locale: string, values: Map<string, unknown> = new Map()) =>
  ({ form: { locale }, values, errors: new Map(), notices: [], prefill: {}, host: 'forms.example.com' }) as unknown as RenderContext;
const date = (content: Record<string, unknown>): StoredComponent => ({ id: 'ALL.C1.0', type: 'Date', content: { question: 'When?', ...content } });
/** A component's markup as text. */
const drawn = async (module: ComponentModule, component: StoredComponent, ctx: RenderContext) => (await module.render!(component, ctx)).toString();

describe("a Date's limits under the field", () => {
  it.each([
    ['en', { min: '2026-03-01', max: '2026-12-31' }, 'Between March 1, 2026 and December 31, 2026'],
    ['en', { min: '2026-03-01' }, 'On or after March 1, 2026'],
    ['en', { max: '2026-12-31' }, 'On or before December 31, 2026'],
    ['de', { min: '2026-03-01', max: '2026-12-31' }, 'Zwischen dem 1. März 2026 und dem 31. Dezember 2026'],
    ['fr-CA', { min: '2026-03-01' }, 'Le 1 mars 2026 ou après'],
    ['ja', { max: '2026-12-31' }, '2026年12月31日以前'],
    ['pl', { min: '2026-03-01', max: '2026-12-31' }, 'Od 1 marca 2026 do 31 grudnia 2026'],
  ])('%s %j: %s', async (locale, limits, hint) => {
    const markup = await drawn(dateQuestion, date(limits), contextIn(locale));
    expect(markup).toContain(`<p class="fl-note" id="f-ALL.C1.0-hint">${hint}</p>`);
    expect(markup).toMatch(/<input type="date" id="f-ALL\.C1\.0"[^>]* aria-describedby="f-ALL\.C1\.0-hint">/);
  });

  it('names the hint and the error together, and writes no hint without limits', async () => {
    const ctx: RenderContext = { ...contextIn('en'), errors: new Map([['ALL.C1.0', ['Must be on or after 2026-03-01']]]) };
    expect(await drawn(dateQuestion, date({ min: '2026-03-01' }), ctx)).toContain('aria-invalid="true" aria-describedby="f-ALL.C1.0-hint f-ALL.C1.0-error"');
    const bare = await drawn(dateQuestion, date({}), contextIn('en'));
    expect(bare).not.toContain('-hint');
    expect(bare).not.toContain('aria-describedby');
  });
});

describe("a scheduler's booked meeting", () => {
  const scheduler: StoredComponent = { id: 'ALL.C2.0', type: 'CalendlyScreen', content: { dataUrl: 'https://calendly.com/acme/intro', calendarType: 'Calendly' } };
  const note = async (locale: string, booking?: unknown) => {
    const markup = await drawn(schedulers, scheduler, contextIn(locale, new Map(booking === undefined ? [] : [[scheduler.id, booking]])));
    // Some ICU versions write a narrow no-break space before "PM".
    return /<p class="fl-note[^"]*" data-booked[^>]*>[^<]*<\/p>/.exec(markup)![0].replaceAll('\u202f', ' ');
  };

  it.each([
    ['en', 'Your meeting is booked for March 1, 2026 at 2:30 PM UTC.'],
    ['de', 'Ihr Termin ist gebucht: 1. März 2026 um 14:30 UTC.'],
    ['ja', 'ミーティングが予約されました: 2026年3月1日 14:30 UTC。'],
  ])('shows its time in the page’s language (%s) when the step comes back booked', async (locale, text) => {
    expect(await note(locale, { eventScheduled: true, meetingTime: '2026-03-01T14:30:00.000Z' })).toContain(`">${text}</p>`);
  });

  it('is hidden until a booking, says it without a time when none is known, and gives the script its sentence', async () => {
    expect(await note('de')).toBe('<p class="fl-note fl-hidden" data-booked data-booked-at="Ihr Termin ist gebucht: {when}.">Ihr Termin ist gebucht.</p>');
    const untimed = await note('de', { eventScheduled: true, uri: 'https://api.calendly.com/scheduled_events/1' });
    expect(untimed).toContain('<p class="fl-note" data-booked');
    expect(untimed).toContain('>Ihr Termin ist gebucht.</p>');
    expect(await note('en', { eventScheduled: false, meetingTime: '2026-03-01T14:30:00.000Z' })).toContain('fl-hidden');
  });
});
