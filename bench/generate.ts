/**
 * `POST /api/v1/environments/{id}/forms/generate` with a realistic 5-step body (a lead form: who,
 * role, needs, a story, a booking), and where its time goes: request validation (the zod schema the
 * route and generateForm validate with), theme inheritance, and the insert (the form and its
 * form.generated event, one transaction). Phases are timed in-process over sequential runs.
 */
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import { createApiKey } from '../src/auth/auth.service.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { generateFormInputSchema } from '../src/forms/components.ts';
import { findForm, generateForm } from '../src/forms/forms.service.ts';
import { inheritTheme } from '../src/forms/theme.ts';

export const generatePath = (environmentId: string) => `/api/v1/environments/${environmentId}/forms/generate`;

export function generateBody(sourceFormId: string) {
  return {
    sourceFormId,
    name: 'Demo request — generated',
    steps: [
      {
        name: 'About you',
        components: [
          { type: 'Header', content: { title: "Let's get to know you", subheading: 'Five quick steps.' } },
          {
            type: 'IdentityInfo',
            content: {
              fields: [
                { key: 'firstName', label: 'First name' },
                { key: 'lastName', label: 'Last name' },
                { key: 'workEmailAddress', label: 'Work e-mail', blockPersonalEmails: true },
              ],
            },
          },
          { type: 'NextButton', content: { label: 'Continue' } },
        ],
      },
      {
        name: 'Your role',
        components: [
          { type: 'ShortInput', content: { question: 'What is your role?' } },
          { type: 'Dropdown', content: { question: 'How big is your team?', options: ['1-10', '11-50', '51-200', '201-1000', '1000+'] } },
          { type: 'NextButton', content: { label: 'Continue' } },
        ],
      },
      {
        name: 'Your needs',
        components: [
          {
            type: 'MultipleOptionsQuestion',
            content: { question: 'What do you want to improve?', choices: ['Lead quality', 'Conversion', 'Speed to lead', 'Routing'], isMulti: true },
          },
          {
            type: 'GraphicOptions',
            content: {
              question: 'Which plan fits?',
              options: [
                { label: 'Starter', value: 'starter' },
                { label: 'Growth', value: 'growth' },
                { label: 'Enterprise', value: 'enterprise' },
              ],
            },
          },
          { type: 'NextButton', content: { label: 'Continue' } },
        ],
      },
      {
        name: 'Anything else',
        components: [
          { type: 'LongInput', content: { question: 'Tell us about your current process' } },
          { type: 'Disclaimer', content: { text: 'I agree to the terms and the privacy policy' } },
          { type: 'NextButton', content: { label: 'Continue' } },
        ],
      },
      { name: 'Book a demo', components: [{ type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro' } }] },
    ],
  };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Mean milliseconds per request and per phase, over `runs` sequential requests in-process. */
export async function generatePhases(databaseUrl: string, environmentId: string, sourceFormId: string, runs = 200) {
  const handle = await openDatabase({ databaseUrl, maxConnections: 2 });
  try {
    const config = { ...loadConfig({ API_RATE_LIMIT: String(1e9) }), databaseUrl, logLevel: 'silent' as const };
    const app = createApp({ config, db: handle.db, logger: pino({ level: 'silent' }), adminToken: 'bench-admin-token-0123456789' });
    const { key } = await createApiKey(handle.db, { environmentId, name: 'bench-generate' });
    const body = generateBody(sourceFormId);
    const text = JSON.stringify(body);
    const source = (await findForm(handle.db, environmentId, sourceFormId))!;
    const input = generateFormInputSchema.parse(body);
    const usedTypes = new Set(input.steps.flatMap((step) => step.components.map((component) => component.type)));
    const timed = async (run: () => unknown) => {
      const times: number[] = [];
      for (let i = 0; i < runs + 20; i++) {
        const started = performance.now();
        await run();
        if (i >= 20) times.push(performance.now() - started);
      }
      return mean(times);
    };
    const request = await timed(async () => {
      const response = await app.request(generatePath(environmentId), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: text });
      if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${await response.text()}`);
    });
    const validation = await timed(() => generateFormInputSchema.parse(JSON.parse(text)));
    const theme = await timed(() => inheritTheme(source.theme, usedTypes));
    // generateForm: the source form's lookup, the theme, the insert and its event (one transaction).
    const service = await timed(() => generateForm(handle.db, environmentId, input));
    return { request, validation, theme, service, insert: Math.max(service - theme, 0) };
  } finally {
    await handle.close();
  }
}
