/**
 * Every state of the public layer, recorded byte for byte (test/public/__snapshots__/): status, headers
 * (cookies, redirects, CSP) and body of the form page (each step, its errors, the final screens, closed,
 * not found, embed mode, resume, captcha, file step, every question type's markup), its message pages,
 * and the JSON API's answers. Random parts are normalised: ids (by what they are where known: the form,
 * its components), nonces, signatures, tokens, times; the page's stylesheet and script are recorded by
 * hash and length. A change to what a respondent or a client receives changes a snapshot.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import { forms } from '../../src/db/schema.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { appWith, createTenant, jsonRequest, setupTestApp, testConfig, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, makeForm, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let all: Form;
let ended: Form;
let invalid: Form;
let files: Form;
let captcha: Form;
let german: Form;
let closed: Form;

const ALL_TYPES = [
  {
    name: 'Intro <b>&</b>',
    components: [
      { type: 'Header', content: { title: 'Welcome <script>alert(1)</script>', subheading: 'Sub "quoted"' } },
      { type: 'ShortInput', content: { question: 'Role?', placeholder: 'e.g. CTO', required: true } },
      { type: 'LongInput', content: { question: 'Tell us more' } },
      { type: 'EmailForm', content: { question: 'Newsletter e-mail' } },
      {
        type: 'IdentityInfo',
        content: {
          fields: [
            { key: 'firstName', label: 'First name', placeholder: 'Ada' },
            {
              key: 'phoneNumber',
              label: 'Phone',
              includeDialCode: true,
              defaultDialCodeCountry: 'GB',
              required: false,
            },
            { key: 'companyName', label: 'Company', required: false },
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
      {
        type: 'MultipleOptionsQuestion',
        content: { question: 'Channels?', options: ['Email', 'Phone'], isMulti: true, allowOther: true },
      },
      {
        type: 'GraphicOptions',
        content: {
          question: 'Style?',
          options: [{ label: 'Modern', imageUrl: 'https://img.example.com/m.png' }, { label: 'Classic' }],
        },
      },
      { type: 'Disclaimer', content: { text: 'We store your data.', checkboxLabel: 'I accept', required: true } },
      { type: 'PasswordInput', content: { question: 'Password' } },
      { type: 'PasswordCreatorInput', content: { question: 'New password' } },
      { type: 'AiChatbot', content: { message: 'Ask me anything' } },
      { type: 'NextBackButtons', content: { nextLabel: 'Continue', backLabel: 'Previous' } },
    ],
  },
  {
    name: 'Scales',
    components: [
      {
        type: 'Rating',
        key: 'rating',
        content: { question: 'Rate the onboarding', scale: 4, lowLabel: 'Poor', highLabel: 'Great', required: true },
      },
      { type: 'NPS', key: 'nps', content: { question: 'How likely are you to recommend us?' } },
      {
        type: 'OpinionScale',
        key: 'opinion',
        content: { question: 'Docs are clear', from: 0, to: 4, labels: { left: 'No', center: 'Meh', right: 'Yes' } },
      },
      {
        type: 'Matrix',
        key: 'grid',
        content: {
          question: 'How do these matter?',
          rows: ['Speed', 'Price'],
          columns: ['Low', 'High'],
          required: true,
        },
      },
      {
        type: 'Matrix',
        key: 'used',
        content: { question: 'Where?', rows: ['Web', 'App'], columns: ['Work', 'Home'], isMulti: true },
      },
      {
        type: 'Ranking',
        key: 'order',
        content: { question: 'Put these in order', choices: ['Speed', 'Price', 'Support'] },
      },
      { type: 'Number', key: 'seats', content: { question: 'How many seats?', min: 1, max: 500, required: true } },
      {
        type: 'Number',
        key: 'budget',
        content: { question: 'Budget', min: 0, decimals: 2, unit: 'k€', placeholder: '12,5' },
      },
      { type: 'Date', key: 'start', content: { question: 'Start date', min: '2026-01-01', max: '2026-12-31' } },
    ],
  },
  {
    name: 'Book',
    components: [
      {
        type: 'CalendlyScreen',
        content: { url: 'https://calendly.com/acme/intro', message: 'Pick a slot', prefillEmail: true },
      },
      {
        type: 'DynamicScheduler',
        content: {
          defaultCalendar: { name: 'Sales', url: 'https://cal.com/acme/sales' },
          calendars: [{ name: 'Support', url: 'https://savvycal.com/acme/support' }],
        },
      },
    ],
  },
];

const oneQuestion = {
  name: 'Ask',
  components: [{ type: 'ShortInput', content: { question: 'Name?', required: true } }],
};

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  all = await makeForm(db, tenant, ALL_TYPES, 'All types', { hiddenFields: ['utm_source'] });
  ended = await makeForm(db, tenant, [oneQuestion, { name: 'Thanks', completion: true, components: [{ type: 'Header', content: { title: 'Thank you!' } }] }], 'Completion');
  invalid = await makeForm(db, tenant, [oneQuestion, { name: 'Sorry', invalid: true, components: [{ type: 'Header', content: { title: 'Not for you' } }] }], 'Invalid');
  files = await makeForm(db, tenant, [{ name: 'Files', components: [{ type: 'FileUploader', content: { question: 'Your CV' } }] }, oneQuestion], 'Files');
  captcha = await makeForm(
    db,
    tenant,
    [
      {
        name: 'Who',
        components: [
          { type: 'ShortInput', content: { question: 'Name?' } },
          { type: 'TurnstileWidget', content: {} },
        ],
      },
      oneQuestion,
    ],
    'Captcha',
  );
  german = await makeForm(db, tenant, [oneQuestion, oneQuestion], 'Deutsch', { locale: 'de' });
  closed = await makeForm(db, tenant, [oneQuestion, oneQuestion], 'Closed');
  await db.update(forms).set({ status: 'closed' }).where(eq(forms.id, closed.id));
});

// ---------------------------------------------------------------- normalising

const HEADERS_LEFT_OUT = new Set(['date', 'ratelimit', 'ratelimit-policy', 'x-request-id']);
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The known ids by what they are: the forms, their steps' components, the environment. */
function knownIds(): Map<string, string> {
  const names = new Map<string, string>([[tenant.environmentId, 'ENV']]);
  const named: [string, Form][] = [
    ['ALL', all],
    ['ENDED', ended],
    ['INVALID', invalid],
    ['FILES', files],
    ['CAPTCHA', captcha],
    ['GERMAN', german],
    ['CLOSED', closed],
  ];
  for (const [label, form] of named) {
    names.set(form.id, label);
    form.steps.forEach((step, s) => {
      names.set(step.id, `${label}.S${s}`);
      step.components.forEach((component, c) => names.set(component.id, `${label}.C${s}.${c}`));
    });
  }
  return names;
}

function normalise(text: string, ids: Map<string, string>): string {
  let others = 0;
  return (
    text
      // The stylesheet and the client scripts: long and fixed, recorded by hash.
      .replace(/(<(style|script) nonce="[^"]*">)([\s\S]*?)(<\/\2>)/g, (_, open: string, _tag, body: string, close: string) =>
        body.length > 200 ? `${open}[${body.length} chars sha256:${hash(body)}]${close}` : `${open}${body}${close}`,
      )
      .replace(/nonce-[A-Za-z0-9+/=]+/g, 'nonce-NONCE')
      .replace(/nonce="[A-Za-z0-9+/=]+"/g, 'nonce="NONCE"')
      .replace(/(fl-token(?:=|%3D|":"))[^&"'\s;<]+/g, '$1TOKEN')
      .replace(/("resumeToken":")[^"]+/g, '$1RESUME')
      // A signature, mac or token after an id: `<id>.<signature>` (cookies, visitor tokens).
      .replace(/(?<![a-z0-9])([a-z][a-z0-9]{23})\.[\w%+/=-]{20,}/g, '$1.SIG')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'TIME')
      .replace(/(?<![a-z0-9])[a-z][a-z0-9]{23}(?![a-z0-9])/g, (id) => {
        if (!ids.has(id)) ids.set(id, `ID${++others}`);
        return ids.get(id)!;
      })
  );
}

/** A response as recorded: status, headers (sorted) and body, normalised. */
async function record(response: Response): Promise<string> {
  const ids = knownIds();
  const headers = [...response.headers.entries()]
    .filter(([name]) => !HEADERS_LEFT_OUT.has(name))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}: ${value}`);
  const cookies = response.headers.getSetCookie().map((cookie) => `set-cookie: ${cookie}`);
  const body = await response.text();
  return normalise([`${response.status}`, ...headers.filter((line) => !line.startsWith('set-cookie:')), ...cookies, '', body].join('\n'), ids);
}

const snap = async (response: Response | Promise<Response>) => expect(await record(await response)).toMatchSnapshot();
const urlencoded = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() };
};
const a = (step: number, index: number) => componentAt(all, step, index);
const step0 = () => ({
  [field(a(0, 1))]: 'CTO',
  [field(a(0, 3))]: 'ada@example.com',
  [field(a(0, 4), 'firstName')]: 'Ada',
});
const step1 = () => ({
  [field(a(1, 0))]: 'S',
  [field(a(1, 3))]: 'on',
  [field(a(1, 4))]: 'secret',
  [field(a(1, 5))]: 'long enough',
  [field(a(1, 5), 'confirmation')]: 'long enough',
});

// ---------------------------------------------------------------- the page

describe('the form page', () => {
  it('walks every step of a form with every question type, with its errors, back links and final screen', async () => {
    const visitor = new Visitor(app, { referer: 'https://ads.example.com/x' });
    await snap(visitor.get(`/s/${all.id}?utm_source=news`));
    await snap(visitor.submit(all, 0, { [field(a(0, 3))]: 'not an e-mail' }));
    await snap(visitor.request(`/s/${all.id}?step=0&utm_source=news&fl-referrer=ads.example.com`, urlencoded(step0())));
    await snap(visitor.get(`/s/${all.id}?step=1`));
    await snap(visitor.submit(all, 1, { ...step1(), [field(a(1, 5), 'confirmation')]: 'different' }));
    await snap(visitor.submit(all, 1, step1()));
    await snap(visitor.get(`/s/${all.id}?step=2`));
    await snap(visitor.submit(all, 2, { [field(a(2, 0))]: '9', [field(a(2, 6))]: '0', [field(a(2, 8))]: '2030-01-01' }));
    await snap(
      visitor.submit(all, 2, {
        [field(a(2, 0))]: '3',
        [field(a(2, 1))]: '9',
        [field(a(2, 2))]: '2',
        [field(a(2, 3), '0')]: 'Low',
        [field(a(2, 3), '1')]: 'High',
        [field(a(2, 6))]: '12',
        [field(a(2, 7))]: '4.5',
        [field(a(2, 8))]: '2026-03-01',
      }),
    );
    // Resume: without ?step the page continues where the response is; a step off the path redirects.
    await snap(visitor.get(`/s/${all.id}`));
    await snap(visitor.get(`/s/${all.id}?step=0`));
    await snap(visitor.get(`/s/${all.id}?step=99`));
    await snap(visitor.submit(all, 3, {}));
    await snap(visitor.get(`/s/${all.id}?done=1`));
    await snap(visitor.submit(all, 0, step0()));
    await snap(visitor.get(`/s/${all.id}`));
  });

  it('starts anew with ?new=1, and sends ?done=1 without an ended response back to the form', async () => {
    const visitor = new Visitor(app);
    await snap(visitor.get(`/s/${all.id}?new=1&utm_source=x`));
    await snap(visitor.get(`/s/${all.id}?done=1`));
    await snap(visitor.submit(all, 5, {}));
    await snap(visitor.submit(all, 2, {}));
  });

  it('shows a completion step and an invalid step as the final screen', async () => {
    for (const form of [ended, invalid]) {
      const visitor = new Visitor(app);
      await visitor.get(`/s/${form.id}`);
      await snap(visitor.submit(form, 0, { [field(componentAt(form, 0, 0))]: 'Ada' }));
      await snap(visitor.get(`/s/${form.id}?done=1`));
      await snap(visitor.submit(form, 0, { [field(componentAt(form, 0, 0))]: 'Ada' }));
    }
  });

  it('answers a closed, unknown or wrongly asked form with its page', async () => {
    await snap(app.request(`/s/${closed.id}`));
    await snap(app.request(`/s/${closed.id}?step=0`, urlencoded({})));
    await snap(app.request('/s/nosuchformnosuchformnosu'));
    await snap(app.request(`/s/${all.id}`, { method: 'PUT' }));
    await snap(app.request(`/s/${all.id}?step=0`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }));
    await snap(
      app.request(`/s/${all.id}?step=0`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=%ff',
      }),
    );
    await snap(
      app.request(`/s/${all.id}?step=0`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `${field(a(0, 1))}=a%00b`,
      }),
    );
    await snap(app.request(`/s/${all.id}?step=0`, urlencoded({ x: 'y'.repeat(testConfig().publicMaxBodyBytes) })));
  });

  it("speaks the form's language on its pages and message pages", async () => {
    const visitor = new Visitor(app);
    await snap(visitor.get(`/s/${german.id}`));
    await snap(visitor.submit(german, 0, {}));
    await snap(
      visitor.request(`/s/${german.id}?step=0`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      }),
    );
    await snap(visitor.request(`/s/${german.id}?step=0`, urlencoded({ x: 'y'.repeat(testConfig().publicMaxBodyBytes) })));
  });

  it('posts a file step without JavaScript', async () => {
    const visitor = new Visitor(app);
    await snap(visitor.get(`/s/${files.id}`));
    const cv = field(componentAt(files, 0, 0));
    const body = new FormData();
    body.append(cv, new File(['%PDF-1.4 a cv'], 'cv.pdf', { type: 'application/pdf' }));
    await snap(visitor.request(`/s/${files.id}?step=0`, { method: 'POST', body }));
    const bad = new FormData();
    bad.append(cv, new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00])], 'cv.pdf', { type: 'application/pdf' }));
    await snap(visitor.request(`/s/${files.id}?step=0`, { method: 'POST', body: bad }));
    await snap(visitor.get(`/s/${files.id}?step=0`));
  });

  it('shows a captcha step, and refuses its post while the provider is away', async () => {
    const base = testConfig().captcha;
    const unreachable = 'http://127.0.0.1:9/siteverify';
    const withCaptcha = appWith(db, {
      captcha: {
        ...base,
        turnstile: { siteKey: 'config-site-key', secretKey: 's', verifyUrl: unreachable },
        timeoutMs: 500,
      },
    });
    const visitor = new Visitor(withCaptcha);
    await snap(visitor.get(`/s/${captcha.id}`));
    await snap(visitor.submit(captcha, 0, { [field(componentAt(captcha, 0, 0))]: 'Ada', 'cf-turnstile-response': 'token' }));
  });

  it('runs in embed mode on a token instead of cookies', async () => {
    const embed = `embed=1&fl-origin=${encodeURIComponent('https://www.example.com')}`;
    const first = await app.request(`/s/${all.id}?${embed}`);
    const page = await first.clone().text();
    await snap(first);
    const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    const posted = await app.request(action, urlencoded(step0()));
    const location = posted.headers.get('location')!;
    await snap(posted);
    await snap(app.request(location));
    await snap(app.request(`/s/${all.id}?step=0&${embed}&fl-token=forged.token`, urlencoded(step0())));
    await snap(app.request(`/s/${all.id}?embed=1&fl-origin=nope`));
    await snap(app.request(`/s/${closed.id}?${embed}&fl-transparent=1`));
  });

  it('serves the embed script', async () => {
    const script = await app.request('/embed.js');
    expect(script.status).toBe(200);
    const text = await script.text();
    const headers = [...script.headers.entries()].filter(([name]) => !HEADERS_LEFT_OUT.has(name)).sort(([x], [y]) => x.localeCompare(y));
    expect({ headers, length: text.length, sha256: hash(text) }).toMatchSnapshot();
    await snap(app.request('/embed.js', { headers: { 'if-none-match': script.headers.get('etag')! } }));
  });
});

// ---------------------------------------------------------------- the JSON API

describe('the JSON API', () => {
  it('answers definitions, starts, updates, uploads and views', async () => {
    const q = componentAt(ended, 0, 0);
    await snap(app.request(`/s/${ended.id}/definition`));
    await snap(app.request(`/s/${all.id}/definition`));
    await snap(app.request(`/s/${ended.id}/definition?version=x`));
    await snap(app.request(`/s/${ended.id}/definition?version=7`));
    await snap(app.request(`/s/${closed.id}/definition`));
    await snap(app.request('/s/nosuchformnosuchformnosu/definition'));
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: {} })));
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: {}, extra: 1 })));
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: {}, visitorToken: 'nope.nope' })));
    const started = await app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: { [q.id]: 'Ada' }, hiddenFields: { other: 'x' } }));
    const body = (await started.clone().json()) as { id: string; resumeToken: string; visitorToken: string };
    await snap(started);
    const patch = (token: string, answers: unknown, finished = false) =>
      app.request(`/s/${ended.id}/responses/${body.id}`, jsonRequest('PATCH', { answers, finished }, { authorization: `Bearer ${token}` }));
    await snap(patch('wrong-token', {}));
    await snap(app.request(`/s/${ended.id}/responses/${body.id}`, jsonRequest('PATCH', { answers: {} })));
    await snap(patch(body.resumeToken, { [q.id]: 42 }));
    await snap(patch(body.resumeToken, { [q.id]: 'Ada L.' }, true));
    await snap(app.request(`/s/${ended.id}/definition?version=1`, { headers: { authorization: `Bearer ${body.resumeToken}` } }));
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: { [q.id]: 'Bo' }, visitorToken: body.visitorToken, finished: true })));
    const idempotent = { 'idempotency-key': 'key-0123456789abcdef' };
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: { [q.id]: 'Cy' } }, idempotent)));
    await snap(app.request(`/s/${ended.id}/responses`, jsonRequest('POST', { answers: { [q.id]: 'Cy' } }, idempotent)));
    await snap(app.request(`/s/${closed.id}/responses`, jsonRequest('POST', { answers: {} })));
    await snap(app.request(`/s/${ended.id}/responses`, { method: 'GET' }));
    await snap(
      app.request(`/s/${ended.id}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
    );
  });

  it('stores uploads and counts views', async () => {
    const cv = componentAt(files, 0, 0);
    const upload = new FormData();
    upload.append('componentId', cv.id);
    upload.append('file', new File(['%PDF-1.4 a cv'], 'cv.pdf', { type: 'application/pdf' }));
    await snap(app.request(`/s/${files.id}/uploads`, { method: 'POST', body: upload }));
    const wrong = new FormData();
    wrong.append('componentId', 'nope');
    wrong.append('other', 'x');
    await snap(app.request(`/s/${files.id}/uploads`, { method: 'POST', body: wrong }));
    await snap(app.request(`/s/${files.id}/uploads`, jsonRequest('POST', {})));
    await snap(app.request(`/s/${closed.id}/uploads`, { method: 'POST', body: upload }));
    await snap(app.request(`/s/${all.id}/views`, jsonRequest('POST', { referrer: 'https://www.example.com/pricing', hiddenFields: { utm_source: 'x' } })));
    await snap(app.request(`/s/${all.id}/views`, jsonRequest('POST', { referrer: 1 })));
    await snap(app.request(`/s/${all.id}/views`, jsonRequest('POST', {}, { 'user-agent': 'Googlebot/2.1' })));
    await snap(app.request(`/s/${closed.id}/views`, jsonRequest('POST', {})));
    await snap(app.request(`/s/${all.id}/views`, { method: 'PUT' }));
  });
});
