/**
 * The public form page over HTTP (`app.request`): rendering of every component, validation with
 * input kept, escaping and CSP, cookies, resume and in-place updates, finishing, leads, ip/country.
 */
import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { parseSigned, serializeSigned } from 'hono/utils/cookie';
import { beforeAll, describe, expect, it } from 'vitest';
import { deriveSecret } from '../../src/auth/secrets.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { responses } from '../../src/db/schema.ts';
import { deleteForm, importForm, type Form } from '../../src/forms/forms.service.ts';
import { verifyPassword } from '../../src/responses/shapes.ts';
import { ADMIN_TOKEN, appWith, createTenant, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { answerIn, componentAt, field, forgetAnswer, leadById, leadOf, makeForm, onlyResponse, responsesOf, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

const ALL_COMPONENTS = [
  {
    name: 'Intro <b>&</b>',
    components: [
      { type: 'Header', content: { title: 'Welcome <script>alert(1)</script>', subheading: 'Sub "quoted"' } },
      { type: 'ShortInput', content: { question: 'Role?', placeholder: 'e.g. CTO', required: true } },
      { type: 'LongInput', content: { question: 'Tell us more' } },
      { type: 'EmailForm', content: { question: 'Newsletter e-mail', blockPersonalEmails: true } },
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: 'First name', placeholder: 'Ada' },
            { key: 'workEmailAddress', label: 'Work e-mail', blockPersonalEmails: true },
            { key: 'phoneNumber', label: 'Phone', includeDialCode: true, defaultDialCodeCountry: 'GB', required: false },
            { key: 'companyName', label: 'Company', required: false },
            { key: 'numberOfEmployees', label: 'Employees', revealAfter: 'companyName' },
          ],
        },
      },
      { type: 'NextButton', content: { label: 'Onwards' } },
    ],
  },
  {
    name: 'Choices',
    components: [
      { type: 'Dropdown', content: { question: 'Size?', options: ['S', 'M'], placeholder: 'Pick a size' } },
      { type: 'Dropdown', content: { question: 'Hidden question', options: ['A', 'B'], isMulti: true, hideQuestion: true } },
      { type: 'MultipleOptionsQuestion', content: { question: 'Channels?', subheading: 'All that apply', options: ['Email', 'Phone'], isMulti: true, allowOther: true } },
      { type: 'GraphicOptions', content: { question: 'Style?', options: [{ label: 'Modern', imageUrl: 'https://img.example.com/m.png' }, { label: 'Classic' }] } },
      { type: 'Disclaimer', content: { text: 'We store your data.', checkboxLabel: 'I accept', required: true } },
      { type: 'PasswordInput', content: { question: 'Password' } },
      { type: 'PasswordCreatorInput', content: { question: 'New password' } },
      { type: 'FileUploader', content: { question: 'Your CV' } },
      { type: 'Recaptcha', content: { siteKey: 'site-key-123' } },
      { type: 'AiChatbot', content: { message: 'Ask me anything' } },
      { type: 'NextBackButtons', content: { nextLabel: 'Continue', backLabel: 'Previous' } },
    ],
  },
  {
    name: 'Book',
    components: [
      { type: 'CalendlyScreen', content: { url: 'https://calendly.com/acme/intro', message: 'Pick a slot', prefillEmail: true } },
      {
        type: 'DynamicScheduler',
        content: { defaultCalendar: { name: 'Sales', url: 'https://cal.com/acme/sales' }, calendars: [{ name: 'Support', url: 'https://savvycal.com/acme/support' }] },
      },
    ],
  },
];

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(db, tenant, ALL_COMPONENTS);
});

const c = (step: number, index: number) => componentAt(form, step, index);
const role = () => c(0, 1);
const identity = () => c(0, 4);

let visitors = 0;
/** A valid first step, with an e-mail of its own (so each visitor is its own lead); `overrides` replace fields. */
function step0(overrides: Record<string, string> = {}): Record<string, string> {
  visitors += 1;
  return {
    [field(role())]: 'CTO',
    [field(c(0, 2))]: 'Line one\nLine two',
    [field(c(0, 3))]: 'news@acme.io',
    [field(identity(), 'firstName')]: 'Ada',
    [field(identity(), 'workEmailAddress')]: `ada.${visitors}@acme.io`,
    [field(identity(), 'phoneNumber.country')]: 'GB',
    [field(identity(), 'phoneNumber')]: '',
    [field(identity(), 'companyName')]: '',
    [field(identity(), 'numberOfEmployees')]: '',
    ...overrides,
  };
}

function step1(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  return {
    [field(c(1, 0))]: 'M',
    [field(c(1, 1))]: ['A', 'B'],
    [field(c(1, 2))]: ['Email', '__other__'],
    [field(c(1, 2), 'other')]: 'Pigeon',
    [field(c(1, 3))]: '1',
    [field(c(1, 4))]: 'on',
    [field(c(1, 5))]: 'hunter2',
    [field(c(1, 6))]: 'long enough',
    [field(c(1, 6), 'confirmation')]: 'long enough',
    [field(c(1, 7))]: 'https://files.example.com/cv.pdf',
    ...overrides,
  };
}

/** The message shown at a field (`<p class="fl-error" id="<input id>-error">`). */
function messageAt(page: string, inputId: string): string | undefined {
  return new RegExp(`id="${inputId}-error">([^<]*)</p>`).exec(page)?.[1];
}

/** The first-step fields each visitor of `freshVisitorAt` sent. */
const firstSteps = new WeakMap<Visitor, Record<string, string>>();

async function freshVisitorAt(step: number, headers: Record<string, string> = {}) {
  const visitor = new Visitor(app, headers);
  await visitor.get(`/s/${form.id}`);
  firstSteps.set(visitor, step0());
  if (step >= 1) expect((await visitor.submit(form, 0, firstSteps.get(visitor)!)).status).toBe(303);
  if (step >= 2) expect((await visitor.submit(form, 1, step1())).status).toBe(303);
  return visitor;
}

describe('rendering', () => {
  it('serves the first step as themed HTML with every component of it', async () => {
    const response = await new Visitor(app).get(`/s/${form.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    // theme
    expect(page).toContain('--fl-primary: #0f766e');
    expect(page).toContain('"Playfair Display"');
    expect(page).toContain('linear-gradient(160deg, #ccfbf1, #f0fdfa)');
    // The template's colours, with its light border darkened to 3:1 against the white fill (docs/public-pages.md, "Accessibility").
    expect(page).toMatch(/\.fl-c\.fl-t-IdentityInfo \{ --c-bg: #ffffff; --c-fg: #134e4a; [^}]*--c-border: #(?!5eead4)[0-9a-f]{6}; [^}]*--c-radius: 12px; \}/);
    expect(page).toMatch(/\.fl-c\.fl-t-ShortInput \{[^}]*--c-accent: #0f766e/); // default style for a type the template lacks: the template's primary
    // The template's fonts, served by formloom itself (fonts.ts).
    expect(page).toMatch(
      /<link rel="stylesheet" href="\/assets\/fonts\/playfair-display\.[\w-]{12}\.css" nonce="[^"]+"><link rel="stylesheet" href="\/assets\/fonts\/source-sans-3\.[\w-]{12}\.css"/,
    );
    expect(page).toContain('class="fl-progress"');
    // components
    expect(page).toContain(`<form method="post" action="/s/${form.id}?step=0"`);
    expect(page).toContain(`name="${field(role())}" class="fl-input" placeholder="e.g. CTO" required`);
    expect(page).toContain(`<textarea id="f-${c(0, 2).id}"`);
    expect(page).toMatch(new RegExp(`<input type="email" id="f-${c(0, 3).id}"`));
    expect(page).toContain(`name="${field(identity(), 'firstName')}" class="fl-input" type="text" autocomplete="given-name" maxlength="300" placeholder="Ada" required`);
    expect(page).toContain('<option value="GB" data-dial="44" selected>GB +44</option>');
    expect(page).toContain(`data-reveal-after="f-${identity().id}-companyName"`);
    expect(page).toContain('>Onwards</button>');
    expect(page).not.toContain('class="fl-back"');
  });

  it('renders the choice, password, file, disclaimer and content-only components', async () => {
    const visitor = await freshVisitorAt(1);
    const page = await (await visitor.get(`/s/${form.id}?step=1`)).text();
    expect(page).toContain('<option value="">Pick a size</option><option value="S">S</option>');
    // A multi-select Dropdown: a group of check boxes named by its (here visually hidden) question, no <select multiple>.
    expect(page).toContain(`<fieldset class="fl-fieldset" id="f-${c(1, 1).id}"><legend class="sr-only">Hidden question</legend>`);
    expect(page).toContain(`<input type="checkbox" id="f-${c(1, 1).id}-1" name="${field(c(1, 1))}" value="B">`);
    expect(page).not.toContain(' multiple>');
    expect(page).toContain(`<legend class="fl-question">Channels?</legend><p class="fl-sub">All that apply</p>`);
    expect(page).toContain(`type="checkbox" id="f-${c(1, 2).id}-0" name="${field(c(1, 2))}" value="Email"`);
    expect(page).toContain('value="__other__"');
    expect(page).toContain('<img src="https://img.example.com/m.png" alt="" loading="lazy">');
    expect(page).toContain('<p class="fl-disclaimer-text">We store your data.</p>');
    expect(page).toContain('<span>I accept</span>');
    expect(page).toContain(`<input type="password" id="f-${c(1, 5).id}"`);
    expect(page).toContain(`name="${field(c(1, 6), 'confirmation')}"`);
    // A real file input, and the captcha's widget with the content's site key.
    expect(page).toContain(`<input type="file" id="f-${c(1, 7).id}"`);
    expect(page).toContain('<p class="fl-note">Ask me anything</p>');
    expect(page).toContain('data-sitekey="site-key-123"');
    expect(page).toContain(`<a class="fl-back" href="/s/${form.id}?step=0">← Previous</a>`);
    expect(page).toContain('>Continue</button>');
  });

  it('embeds the schedulers from http(s) URLs only, prefilling the e-mail of earlier steps, and lets the CSP frame just those', async () => {
    const visitor = await freshVisitorAt(2);
    const response = await visitor.get(`/s/${form.id}?step=2`);
    const page = await response.text();
    expect(page).toContain('<p class="fl-question">Pick a slot</p>');
    expect(page).toMatch(/src="https:\/\/calendly\.com\/acme\/intro\?email=ada\.\d+%40acme\.io&amp;name=Ada&amp;embed_domain=localhost&amp;embed_type=Inline"/);
    expect(page).toContain('src="https://cal.com/acme/sales"');
    expect(page).toContain('data-src="https://savvycal.com/acme/support"');
    expect(page).toContain(`name="${field(c(2, 0), 'eventScheduled')}" data-booking="eventScheduled" value="false"`);
    expect(page).toContain('>Submit</button>');
    expect(response.headers.get('content-security-policy')).toContain('frame-src https://calendly.com https://cal.com https://savvycal.com;');
  });

  it('loads no external font stylesheet with FONTS_CSS_URL=none', async () => {
    expect(loadConfig({ FONTS_CSS_URL: 'none' }).fontsCssUrl).toBeUndefined();
    expect(loadConfig({ FONTS_CSS_URL: 'https://fonts.example.net/css2' }).fontsCssUrl).toBe('https://fonts.example.net/css2');
    expect(() => loadConfig({ FONTS_CSS_URL: 'javascript:alert(1)' })).toThrow(/FONTS_CSS_URL/);
    const response = await appWith(db, { fontsCssUrl: undefined }).request(`/s/${form.id}`);
    const page = await response.text();
    expect(page).not.toContain('<link rel="stylesheet"');
    expect(page).toContain('"Playfair Display", system-ui'); // locally installed fonts still apply
    expect(response.headers.get('content-security-policy')).not.toContain('googleapis');
  });

  it('never embeds a calendar URL that is not http(s), even if one got stored', async () => {
    const stored = await importForm(db, {
      environmentId: tenant.environmentId,
      name: 'Hand-made',
      theme: form.theme,
      steps: [{ name: 'Book', components: [{ type: 'CalendlyScreen', content: { dataUrl: 'javascript:alert(1)' } }] }],
    });
    const response = await new Visitor(app).get(`/s/${stored.id}`);
    const page = await response.text();
    expect(page).not.toContain('<iframe');
    expect(page).not.toContain('javascript:');
    expect(page).toContain('This calendar can&#39;t be shown.');
    expect(response.headers.get('content-security-policy')).toContain("frame-src 'none'");
  });

  it('answers a plain 404 page for unknown, deleted and draft forms', async () => {
    const deleted = await makeForm(db, tenant, ALL_COMPONENTS.slice(0, 2));
    await deleteForm(db, tenant.environmentId, deleted.id);
    const draft = await importForm(db, {
      environmentId: tenant.environmentId,
      name: 'Draft',
      theme: form.theme,
      steps: [{ name: 'A', components: [{ type: 'Header', content: {} }] }],
      status: 'draft',
    });
    for (const id of ['no-such-form', deleted.id, draft.id]) {
      const response = await app.request(`/s/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<h1>Form not found</h1>');
      expect((await app.request(`/s/${id}?step=0`, { method: 'POST', body: new URLSearchParams({ a: 'b' }) })).status).toBe(404);
    }
  });
});

describe('security', () => {
  it('escapes the form text and the visitor input', async () => {
    const visitor = new Visitor(app);
    const page = await (await visitor.get(`/s/${form.id}`)).text();
    expect(page).toContain('<h1>Welcome &lt;script&gt;alert(1)&lt;/script&gt;</h1><p>Sub &quot;quoted&quot;</p>');
    expect(page).toContain('Intro &lt;b&gt;&amp;&lt;/b&gt;');
    const evil = '"><script>alert(2)</script>';
    const again = await (await visitor.submit(form, 0, step0({ [field(role())]: evil, [field(c(0, 3))]: 'bad' }))).text();
    expect(again).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
    expect(again).not.toContain('<script>alert');
  });

  it('sends a Content-Security-Policy that only runs its own nonce-tagged script and style', async () => {
    const response = await app.request(`/s/${form.id}`);
    const csp = response.headers.get('content-security-policy')!;
    const page = await response.text();
    const nonce = /<script nonce="([^"]+)" src="\/assets\/page\.[\w-]{12}\.js">/.exec(page)![1]!;
    expect(page).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).toContain(`style-src 'nonce-${nonce}' 'self';`);
    expect(csp).toContain("frame-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("base-uri 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page).not.toMatch(/ style="| on[a-z]+="/); // no inline styles or handlers the CSP would block
  });

  it('keeps the visitor and the session in signed, HttpOnly, SameSite=Lax cookies', async () => {
    const response = await app.request(`/s/${form.id}`);
    const cookies = response.headers.getSetCookie();
    const lead = cookies.find((cookie) => cookie.startsWith(`fl_lead_${tenant.environmentId}=`))!;
    const session = cookies.find((cookie) => cookie.startsWith(`fl_s_${form.id}=`))!;
    for (const cookie of [lead, session]) {
      expect(cookie).toMatch(/^[^=]+=[A-Z0-9]+\.[^;]+;/i); // value.signature
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).not.toContain('Secure');
    }
    expect(lead).toContain('Path=/s;');
    expect(session).toContain(`Path=/s/${form.id};`);
    const behindTls = appWith(db, { trustProxy: 1 });
    const secure = await behindTls.request(`/s/${form.id}`, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.1' } });
    expect(secure.headers.getSetCookie().every((cookie) => cookie.includes('Secure'))).toBe(true);
  });

  it('ignores a session cookie whose signature does not match', async () => {
    const visitor = await freshVisitorAt(1);
    const name = `fl_s_${form.id}`;
    const [, signature] = decodeURIComponent(visitor.cookies.get(name)!).split('.');
    visitor.cookies.set(name, encodeURIComponent(`forgedsession.${signature}`));
    const page = await (await visitor.get(`/s/${form.id}`)).text();
    expect(page).toContain('Intro'); // a new session starts at the beginning
    expect(visitor.cookies.get(name)).not.toContain('forgedsession');
  });

  it("keeps hono's signed-cookie format both ways: hono's parser accepts ours, and a session hono signed resumes", async () => {
    const secret = deriveSecret(ADMIN_TOKEN, 'public-cookies');
    const visitor = await freshVisitorAt(1);
    const name = `fl_s_${form.id}`;
    const ours = visitor.cookies.get(name)!;
    const sessionId = decodeURIComponent(ours).split('.')[0]!;
    expect((await parseSigned(`${name}=${ours}`, secret, name))[name]).toBe(sessionId);
    const honos = (await serializeSigned(name, sessionId, secret)).slice(name.length + 1).split(';')[0]!;
    expect(honos).toBe(ours);
    // Signed with another secret, the same cookie is refused and replaced.
    const other = (await serializeSigned(name, sessionId, `${secret}x`)).slice(name.length + 1).split(';')[0]!;
    visitor.cookies.set(name, other);
    const refused = await visitor.get(`/s/${form.id}`);
    expect(refused.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`))).toBe(true);
    // Malformed: no signature, a short one, one that is not base64; each refused and replaced, never a 500.
    for (const malformed of [sessionId, `${sessionId}.`, `${sessionId}.abc%3D`, encodeURIComponent(`${sessionId}.${'é'.repeat(44)}`)]) {
      visitor.cookies.set(name, malformed);
      const replaced = await visitor.get(`/s/${form.id}`);
      expect(replaced.status).toBe(200);
      expect(replaced.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`))).toBe(true);
    }
    visitor.cookies.set(name, honos);
    const resumed = await visitor.get(`/s/${form.id}`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.getSetCookie().some((cookie) => cookie.startsWith(`${name}=`))).toBe(false);
  });
});

describe('validation', () => {
  it('shows the step again with the input kept and a message at each bad field', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const response = await visitor.submit(
      form,
      0,
      step0({
        [field(role())]: 'x'.repeat(1001),
        [field(c(0, 3))]: 'news@gmail.com',
        [field(identity(), 'workEmailAddress')]: 'not-an-email',
        [field(identity(), 'phoneNumber')]: 'call me',
      }),
    );
    expect(response.status).toBe(422);
    const page = await response.text();
    // One link per message, each to its own field: the two IdentityInfo messages are two links.
    expect(page).toContain('<div class="fl-alert" role="alert" id="fl-error-summary"><p class="fl-alert-title">Please check these 4 answers:</p>');
    expect(page).toContain(`<li><a href="#q-${c(0, 3).id}">`);
    expect(page).toContain(
      `<li><a href="#f-${identity().id}-workEmailAddress">Enter a valid e-mail address</a></li><li><a href="#f-${identity().id}-phoneNumber">Enter a valid phone number</a></li>`,
    );
    expect(messageAt(page, `f-${role().id}`)).toBe('Must be at most 1000 characters');
    expect(messageAt(page, `f-${c(0, 3).id}`)).toBe('Please use your work e-mail address');
    expect(messageAt(page, `f-${identity().id}-workEmailAddress`)).toBe('Enter a valid e-mail address');
    expect(messageAt(page, `f-${identity().id}-phoneNumber`)).toBe('Enter a valid phone number');
    expect(page).toContain(`value="${'x'.repeat(1001)}"`);
    expect(page).toContain('value="not-an-email"');
    expect(page).toContain('value="Ada"');
    expect(page).toContain('Line one\nLine two</textarea>');
    expect(await responsesOf(db, form.id).then((rows) => rows.filter((r) => r.leadId === leadOf(visitor, tenant.environmentId)))).toHaveLength(0);
  });

  it('requires a field revealed after another only once that one is filled', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const page = await (await visitor.submit(form, 0, step0({ [field(identity(), 'companyName')]: 'Acme' }))).text();
    expect(messageAt(page, `f-${identity().id}-numberOfEmployees`)).toBe('Employees is required');
    expect((await visitor.submit(form, 0, step0())).status).toBe(303);
  });

  it('rejects a choice that is not among the options and an unticked required disclaimer', async () => {
    const visitor = await freshVisitorAt(1);
    const response = await visitor.submit(form, 1, step1({ [field(c(1, 0))]: 'XL', [field(c(1, 2))]: ['Fax'], [field(c(1, 4))]: [] }));
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(messageAt(page, `f-${c(1, 0).id}`)).toBe('&quot;XL&quot; is not one of the options');
    expect(messageAt(page, `f-${c(1, 2).id}`)).toBe('&quot;Fax&quot; is not one of the choices');
    expect(messageAt(page, `f-${c(1, 4).id}`)).toBe('Please tick the box to continue');
    expect(page).not.toContain('hunter2'); // passwords are never sent back
  });

  it('a last step cannot finish past unanswered required questions on its path: it points there and the response stays open', async () => {
    const visitor = await freshVisitorAt(2);
    await forgetAnswer(db, form.id, c(0, 1).id);
    const response = await visitor.submit(form, 2, {});
    expect(response.status).toBe(422);
    const page = await response.text();
    expect(page).toContain(`Some required questions in “Intro &lt;b&gt;&amp;&lt;/b&gt;” are not answered yet. <a href="/s/${form.id}?step=0">Answer them</a>`);
    expect(page).toContain(`href="/s/${form.id}?step=1"`);
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId));
    expect(row).toMatchObject({ finished: false });
    expect(row!.data.map((a) => a.questionId)).not.toContain(c(2, 0).id);
  });
});

describe('filling in a form', () => {
  it('creates the response on the first step, resumes it, updates answers in place and finishes on the last step', async () => {
    const tab = new Visitor(app);
    await tab.get(`/s/${form.id}`);
    const fields = step0();
    const first = await tab.submit(form, 0, fields);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/s/${form.id}?step=1`);
    let [row] = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(tab, tenant.environmentId));
    expect(row).toMatchObject({ finished: false });
    const responseId = row!.id;

    // The same browser comes back later: it continues at step 2 and can't skip ahead.
    const later = new Visitor(app);
    for (const [name, value] of tab.cookies) later.cookies.set(name, value);
    expect(await (await later.get(`/s/${form.id}`)).text()).toContain('Choices<span class="sr-only"> (step 2 of 3)');
    const skip = await later.get(`/s/${form.id}?step=2`);
    expect([skip.status, skip.headers.get('location')]).toEqual([303, `/s/${form.id}?step=1`]);

    // Back to step 1: the stored answers are shown; changing one updates it in place.
    const back = await (await later.get(`/s/${form.id}?step=0`)).text();
    expect(back).toContain('value="Ada"');
    expect(back).toContain(`value="${fields[field(identity(), 'workEmailAddress')]}"`);
    await later.submit(form, 0, { ...fields, [field(identity(), 'firstName')]: 'Adele' });
    [row] = (await responsesOf(db, form.id)).filter((r) => r.id === responseId);
    expect(row!.data).toHaveLength(4);
    expect(answerIn(row!, identity().id)).toMatchObject({ firstName: 'Adele', fullName: 'Adele' });

    expect((await later.submit(form, 1, step1())).headers.get('location')).toBe(`/s/${form.id}?step=2`);
    const last = await later.submit(form, 2, {
      [field(c(2, 0), 'eventScheduled')]: 'true',
      [field(c(2, 0), 'uri')]: 'https://api.calendly.com/scheduled_events/XYZ',
      [field(c(2, 1), 'eventScheduled')]: 'false',
    });
    expect(last.headers.get('location')).toBe(`/s/${form.id}?done=1`);
    expect(await (await later.get(`/s/${form.id}?done=1`)).text()).toContain('<h1>Thank you!</h1>');

    const [done] = (await responsesOf(db, form.id)).filter((r) => r.id === responseId);
    expect(done).toMatchObject({ finished: true, completedForm: 1 });
    expect(answerIn(done!, c(2, 0).id)).toEqual({
      type: 'CalendlyScreen',
      componentShapeVersion: '2.0',
      headline: 'Pick a slot',
      eventScheduled: true,
      uri: 'https://api.calendly.com/scheduled_events/XYZ',
    });
    expect(answerIn(done!, c(2, 1).id)).toMatchObject({ type: 'DynamicScheduler', eventScheduled: false });
  });

  it('stores each step-2 component in its response shape, passwords only hashed', async () => {
    const visitor = await freshVisitorAt(2);
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId));
    expect(answerIn(row!, c(1, 0).id)).toEqual({ type: 'Dropdown', componentShapeVersion: '2.0', headline: 'Size?', selected: 'M' });
    expect(answerIn(row!, c(1, 1).id)).toMatchObject({ selected: ['A', 'B'] });
    expect(answerIn(row!, c(1, 2).id)).toMatchObject({
      choices: [
        { key: 'Email', value: true, index: 0 },
        { key: 'Phone', value: false, index: 1 },
      ],
      selectedOther: true,
      other: 'Pigeon',
    });
    expect(answerIn(row!, c(1, 3).id)).toMatchObject({ index: 1, value: 'Classic' });
    expect(answerIn(row!, c(1, 4).id)).toMatchObject({ type: 'Disclaimer', check: true });
    expect(answerIn(row!, c(1, 7).id)).toMatchObject({ fileUrl: 'https://files.example.com/cv.pdf' });
    expect(JSON.stringify(row!.data)).not.toMatch(/hunter2|long enough/);
    expect(await verifyPassword('hunter2', String(answerIn(row!, c(1, 5).id)!.input))).toBe(true);
    expect(row!.data.map((a) => a.questionId)).not.toContain(c(1, 8).id); // Recaptcha records nothing
    expect(row!.data.map((a) => a.questionId)).not.toContain(c(1, 9).id); // AiChatbot records nothing
    expect(answerIn(row!, c(0, 3).id)).toMatchObject({ type: 'EmailForm', emailAddress: 'news@acme.io' });

    // Revisiting the step: an empty password field keeps the stored hash.
    const hash = answerIn(row!, c(1, 5).id)!.input;
    const again = await visitor.submit(form, 1, step1({ [field(c(1, 5))]: '', [field(c(1, 6))]: '', [field(c(1, 6), 'confirmation')]: '' }));
    expect(again.status).toBe(303);
    const [after] = (await responsesOf(db, form.id)).filter((r) => r.id === row!.id);
    expect(answerIn(after!, c(1, 5).id)!.input).toBe(hash);
  });

  it('adds the dial code to the phone number and shows it split again', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    await visitor.submit(form, 0, step0({ [field(identity(), 'phoneNumber.country')]: 'DE', [field(identity(), 'phoneNumber')]: '30 1234567' }));
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId));
    expect(answerIn(row!, identity().id)).toMatchObject({ phoneNumber: '+49 30 1234567' });
    const page = await (await visitor.get(`/s/${form.id}?step=0`)).text();
    expect(page).toContain('<option value="DE" data-dial="49" selected>DE +49</option>');
    expect(page).toContain('value="30 1234567"');
  });

  it('coming back after finishing starts a new response of the same lead', async () => {
    const visitor = await freshVisitorAt(2);
    await visitor.submit(form, 2, {});
    const firstSession = visitor.cookies.get(`fl_s_${form.id}`);
    const page = await (await visitor.get(`/s/${form.id}`)).text();
    expect(page).toContain('(step 1 of 3)');
    expect(page).not.toContain('value="Ada"');
    expect(visitor.cookies.get(`fl_s_${form.id}`)).not.toBe(firstSession);
    await visitor.submit(form, 0, firstSteps.get(visitor)!);
    const rows = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId)).sort((a, b) => a.visitedForm - b.visitedForm);
    expect(rows.map((r) => [r.finished, r.visitedForm, r.completedForm])).toEqual([
      [true, 1, 1],
      [false, 2, 1],
    ]);
  });
});

describe('leads, ip and country', () => {
  it("the visitor's cookie lead becomes the response's lead; an e-mail of a known lead attaches the response to it", async () => {
    const known = new Visitor(app);
    await known.get(`/s/${form.id}`);
    await known.submit(form, 0, step0({ [field(identity(), 'workEmailAddress')]: 'Known.Lead@acme.io' }));
    const knownLead = leadOf(known, tenant.environmentId);
    expect((await leadById(db, knownLead))?.email).toBe('known.lead@acme.io');

    const other = new Visitor(app);
    await other.get(`/s/${form.id}`);
    const anonymous = leadOf(other, tenant.environmentId);
    await other.submit(form, 0, step0({ [field(identity(), 'workEmailAddress')]: 'KNOWN.LEAD@acme.io' }));
    expect(leadOf(other, tenant.environmentId)).toBe(knownLead); // the cookie now names the known lead
    expect((await responsesOf(db, form.id)).filter((r) => r.leadId === anonymous)).toHaveLength(0);
  });

  it('records an empty ip without a socket, and the country from the configured header', async () => {
    const visitor = new Visitor(app, { 'cf-ipcountry': 'fr' });
    await visitor.get(`/s/${form.id}`);
    await visitor.submit(form, 0, step0());
    const [row] = (await responsesOf(db, form.id)).filter((r) => r.leadId === leadOf(visitor, tenant.environmentId));
    expect([row!.ip, row!.country]).toEqual(['', 'FR']);
    const plain = await freshVisitorAt(1);
    expect((await responsesOf(db, form.id)).find((r) => r.leadId === leadOf(plain, tenant.environmentId))!.country).toBe('');
  });

  it('takes the ip from X-Forwarded-For as far as TRUST_PROXY allows, and the country from COUNTRY_HEADER', async () => {
    const cases: [number, string][] = [
      [1, '203.0.113.9'],
      [2, '198.51.100.1'],
      [5, '198.51.100.1'],
    ];
    for (const [trustProxy, expected] of cases) {
      const proxied = appWith(db, { trustProxy, countryHeader: 'x-country' });
      const visitor = new Visitor(proxied, { 'x-forwarded-for': '198.51.100.1, 203.0.113.9', 'x-country': 'NL', 'cf-ipcountry': 'US' });
      await visitor.get(`/s/${form.id}`);
      expect((await visitor.submit(form, 0, step0())).status).toBe(303);
      const row = (await responsesOf(db, form.id)).find((r) => r.leadId === leadOf(visitor, tenant.environmentId))!;
      expect([row.ip, row.country], `TRUST_PROXY=${trustProxy}`).toEqual([expected, 'NL']);
    }
  });

  it('shows the response as the API does: status 2, meta.leadId and personAttributes', async () => {
    const single = await makeForm(db, tenant, ALL_COMPONENTS.slice(0, 2));
    const visitor = new Visitor(app, { 'cf-ipcountry': 'DE' });
    await visitor.get(`/s/${single.id}`);
    const ident = componentAt(single, 0, 4);
    await visitor.submit(single, 0, {
      [field(componentAt(single, 0, 1))]: 'CTO',
      [field(ident, 'firstName')]: 'Ada',
      [field(ident, 'workEmailAddress')]: 'solo@single.io',
    });
    const response = await onlyResponse(db, single.id);
    expect(response).toMatchObject({
      finished: false,
      status: 2,
      version: '2.0',
      meta: { source: 'page', leadId: leadOf(visitor, tenant.environmentId) },
      personAttributes: { ip: '', country: 'DE', visitedForm: 1, completedForm: 0 },
    });
  });
});

describe('reading the responses back (GET /api/v1/responses)', () => {
  it('shows a page response as partial (2), dropped off (3) when left alone, and completed (4)', async () => {
    const quick = appWith(db, { dropOffMs: 1000 });
    const single = await makeForm(db, tenant, ALL_COMPONENTS.slice(0, 2));
    const ident = componentAt(single, 0, 4);
    const visitor = new Visitor(quick);
    await visitor.get(`/s/${single.id}`);
    await visitor.submit(single, 0, { [field(componentAt(single, 0, 1))]: 'CTO', [field(ident, 'firstName')]: 'Ada', [field(ident, 'workEmailAddress')]: 'e2e@acme.io' });
    const read = async (partials: boolean) => {
      const response = await quick.request(`/api/v1/responses?formId=${single.id}&returnPartials=${partials}`, { headers: { 'x-api-key': tenant.apiKey } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { finished: boolean; status: number; meta: { leadId: string } }[] }).data;
    };
    expect(await read(false)).toEqual([]);
    expect(await read(true)).toMatchObject([{ finished: false, status: 2, meta: { leadId: leadOf(visitor, tenant.environmentId) } }]);
    // Left alone for longer than the drop-off time: its times moved back by that much, rather than waited for.
    const ago = (column: AnyPgColumn) => sql`${column} - interval '1100 milliseconds'`;
    await db
      .update(responses)
      .set({ createdAt: ago(responses.createdAt), updatedAt: ago(responses.updatedAt), dataUpdatedAt: ago(responses.dataUpdatedAt) })
      .where(eq(responses.formId, single.id));
    expect(await read(true)).toMatchObject([{ finished: false, status: 3 }]);
    const last = await visitor.submit(single, 1, { [field(componentAt(single, 1, 4))]: 'on' }); // the required disclaimer
    expect(last.headers.get('location')).toBe(`/s/${single.id}?done=1`);
    expect(await read(false)).toMatchObject([{ finished: true, status: 4 }]);
  });
});
