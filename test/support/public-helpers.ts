/** Fixtures for the public page and submission API tests: forms, a cookie-keeping visitor, stored responses. */
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { leadFormStats, leads, responses } from '../../src/db/schema.ts';
import { generateFormInputSchema } from '../../src/forms/components.ts';
import { findFormById, generateForm, type Form } from '../../src/forms/forms.service.ts';
import { toResponseObject } from '../../src/responses/model.ts';
import { PasswordHasher } from '../../src/responses/password-hashing.ts';
import type { AnswerLimits } from '../../src/responses/submissions.service.ts';
import { jsonRequest, testConfig, type TestContext, type TestTenant } from './helpers.ts';
import type { StoredComponent } from '../../src/db/json-columns.ts';

export type App = TestContext['app'];

/** The answer limits of the test defaults, for calling the submissions service directly. */
export const testAnswerLimits = (config = testConfig()): AnswerLimits => ({
  maxPasswordAnswers: config.maxPasswordAnswers,
  passwords: new PasswordHasher(config.passwordHashConcurrency),
});

/** Generates a published form from the tenant's template (the same path as the generate endpoint). */
export async function makeForm(
  db: Database,
  tenant: TestTenant,
  steps: unknown[],
  name: string | Record<string, string> = 'Public form',
  more: { hiddenFields?: string[]; locale?: string; variables?: unknown[]; languages?: { default: string; others: string[] } } = {},
): Promise<Form> {
  return generateForm(db, tenant.environmentId, generateFormInputSchema.parse({ sourceFormId: tenant.templateId, name, steps, ...more }));
}

export const componentAt = (form: Form, step: number, index: number): StoredComponent => form.steps[step]!.components[index]!;
/** The page's field name for a component (or one of its parts). */
export const field = (component: StoredComponent, part?: string) => (part ? `c.${component.id}.${part}` : `c.${component.id}`);

/** A browser stand-in over `app.request`: keeps the cookies it is given and sends them back. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: App,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await this.app.request(path, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  }

  get(path: string) {
    return this.request(path);
  }

  /** Submits step `step` of `form` as the page's HTML form would. */
  submit(form: Form, step: number, fields: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    return this.request(`/s/${form.id}?step=${step}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }
}

/** The lead id a visitor's lead cookie for `environmentId` names (the signed value's id part); '' without the cookie. */
/** Generates a form through the REST API (the whole request path); the stored form when it was made. */
export async function generateThroughApi(app: App, db: Database, tenant: TestTenant, name: string, steps: unknown[], more: Record<string, unknown> = {}) {
  const response = await app.request(
    `/api/v1/environments/${tenant.environmentId}/forms/generate`,
    jsonRequest('POST', { sourceFormId: tenant.templateId, name, steps, ...more }, { 'x-api-key': tenant.apiKey }),
  );
  const body: any = await response.json();
  const form = response.status === 200 ? await findFormById(db, body.result.form.id) : undefined;
  return { status: response.status, body, form: form as Form };
}

export function leadOf(visitor: Visitor, environmentId: string): string {
  return decodeURIComponent(visitor.cookies.get(`fl_lead_${environmentId}`) ?? '').split('.')[0]!;
}

export async function responsesOf(db: Database, formId: string) {
  return db.select().from(responses).where(eq(responses.formId, formId));
}

/**
 * Takes an answer out of every response of a form, as if its question had been added after those
 * responses went past its step (what a later version of a form can do).
 */
export async function forgetAnswer(db: Database, formId: string, questionId: string) {
  for (const row of await responsesOf(db, formId)) {
    await db
      .update(responses)
      .set({ data: row.data.filter((answer) => answer.questionId !== questionId) })
      .where(eq(responses.id, row.id));
  }
}

/** The single response of a form, as the API shows it. */
export async function onlyResponse(db: Database, formId: string, dropOffMs = testConfig().dropOffMs) {
  const rows = await responsesOf(db, formId);
  if (rows.length !== 1) throw new Error(`expected one response, found ${rows.length}`);
  return toResponseObject(rows[0]!, new Date(), dropOffMs);
}

export async function leadById(db: Database, id: string) {
  const [row] = await db.select().from(leads).where(eq(leads.id, id));
  return row;
}

export async function statsOf(db: Database, leadId: string) {
  return db.select().from(leadFormStats).where(eq(leadFormStats.leadId, leadId));
}

/** `answer` of `questionId` in a response object's data. */
export function answerIn(response: { data: { questionId: string; response: Record<string, unknown> }[] }, questionId: string) {
  return response.data.find((a) => a.questionId === questionId)?.response;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
