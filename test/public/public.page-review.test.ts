/**
 * What a review of the respondent's page asked for: each message of the error summary is its own link to
 * its field; a required group of choices shows the marker and is a required radio group; every step has
 * one visible h1 (its first Header's title, else the form's name) and the title keeps the form's name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.ts';
import type { Form } from '../../src/forms/forms.service.ts';
import { createTenant, jsonRequest, setupTestApp, type TestTenant } from '../support/helpers.ts';
import { componentAt, field, generateThroughApi, makeForm, Visitor, type App } from '../support/public-helpers.ts';

let db: Database;
let app: App;
let tenant: TestTenant;
let form: Form;

beforeAll(async () => {
  ({ db, app } = await setupTestApp());
  tenant = await createTenant(db);
  form = await makeForm(
    db,
    tenant,
    [
      {
        name: 'Questions',
        components: [
          { type: 'MultipleOptionsQuestion', content: { question: 'Pick one', choices: ['a', 'b'], required: true } },
          { type: 'MultipleOptionsQuestion', content: { question: 'Pick some', choices: ['a', 'b'], isMulti: true, required: true } },
          { type: 'GraphicOptions', content: { question: 'Style', options: [{ label: 'A' }, { label: 'B' }], required: true } },
          { type: 'Ranking', content: { question: 'Order', options: ['x', 'y', 'z'] } },
        ],
      },
      {
        name: 'Headed',
        components: [
          { type: 'Header', content: { title: 'First title' } },
          { type: 'Header', content: { title: 'Second title' } },
          { type: 'ShortInput', content: { question: 'Q' } },
        ],
      },
    ],
    'Review form',
  );
});

const headings = (page: string) => [...page.matchAll(/<(h[12])[^>]*>([^<]*)</g)].map((m) => `${m[1]}:${m[2]}`);

describe('the respondent’s page', () => {
  it('marks every required group of choices, and makes a required group of radio buttons a required radiogroup', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    const box = (index: number) => {
      const at = page.indexOf(`id="q-${componentAt(form, 0, index).id}"`);
      return page.slice(at, page.indexOf('</fieldset>', at));
    };
    expect(box(0)).toContain(
      '<fieldset class="fl-fieldset" role="radiogroup" aria-required="true"><legend class="fl-question">Pick one<span aria-hidden="true"> *</span></legend>',
    );
    expect(box(1)).toContain('<fieldset class="fl-fieldset"><legend class="fl-question">Pick some<span aria-hidden="true"> *</span></legend>');
    expect(box(2)).toContain('role="radiogroup" aria-required="true"><legend class="fl-question">Style<span aria-hidden="true"> *</span></legend>');
  });

  it('shows the form’s name as the one h1 of a step without a Header, and a step’s first Header title as its h1', async () => {
    const visitor = new Visitor(app);
    const first = await (await visitor.get(`/s/${form.id}`)).text();
    expect(headings(first)).toEqual(['h1:Review form']);
    expect(first).toContain('<title>Questions (step 1 of 2) – Review form</title>');
    const ranking = componentAt(form, 0, 3);
    const moved = await visitor.submit(form, 0, {
      [field(componentAt(form, 0, 0))]: 'a',
      [field(componentAt(form, 0, 1))]: 'b',
      [field(componentAt(form, 0, 2))]: '1',
      [field(ranking, '1')]: 'x',
      [field(ranking, '2')]: 'y',
      [field(ranking, '3')]: 'z',
    });
    expect(moved.status).toBe(303);
    const second = await (await visitor.get(`/s/${form.id}?step=1`)).text();
    expect(headings(second)).toEqual(['h1:First title', 'h2:Second title']);
    expect(second).toContain('<title>Headed (step 2 of 2) – Review form</title>');
  });

  it('lists each message of the error summary as its own link to its field', async () => {
    const visitor = new Visitor(app);
    await visitor.get(`/s/${form.id}`);
    const ranking = componentAt(form, 0, 3);
    const refused = await visitor.submit(form, 0, { [field(ranking, '1')]: 'x', [field(ranking, '2')]: 'x', [field(ranking, '3')]: 'q' });
    expect(refused.status).toBe(422);
    const page = await refused.text();
    const links = [...page.matchAll(/<li><a href="#([^"]+)">([^<]*)<\/a><\/li>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      [`q-${componentAt(form, 0, 0).id}`, 'Pick one: This question requires an answer'],
      [`q-${componentAt(form, 0, 1).id}`, 'Pick some: This question requires an answer'],
      [`q-${componentAt(form, 0, 2).id}`, 'Style: This question requires an answer'],
      [`f-${ranking.id}-2`, 'Order: &quot;x&quot; is ranked twice'],
      [`f-${ranking.id}-3`, 'Order: &quot;q&quot; is not one of the options'],
      [`q-${ranking.id}`, 'Order: Rank every option; missing: &quot;y&quot;, &quot;z&quot;'],
    ]);
    expect(page).toContain('Please check these 6 answers:');
  });

  it('fills the progress bar with the steps behind the respondent, full only on the final screen, and describes each page', async () => {
    const tenantWithBar = await createTenant(db, { theme: { ...tenant.template.theme!, layout: { ...tenant.template.theme!.layout, showProgressBar: true } } });
    const barForm = await makeForm(db, tenantWithBar, [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q1' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Q2' } }] },
    ]);
    const width = (page: string) => /\.fl-progress > span \{ width: ([\d.]+)%; \}/.exec(page)?.[1];
    const visitor = new Visitor(app);
    const first = await (await visitor.get(`/s/${barForm.id}`)).text();
    expect(width(first)).toBe('0');
    expect(first).toContain('<meta name="description" content="One (step 1 of 2) – Public form">');
    await visitor.submit(barForm, 0, { [field(componentAt(barForm, 0, 0))]: 'a' });
    expect(width(await (await visitor.get(`/s/${barForm.id}?step=1`)).text())).toBe('50');
    const done = await visitor.submit(barForm, 1, { [field(componentAt(barForm, 1, 0))]: 'b' });
    const final = await (await visitor.get(done.headers.get('location')!)).text();
    expect(width(final)).toBe('100');
    expect(final).toContain('aria-valuenow="100"');
  });

  it('offers "Submit another response" on the final screen only where the form allows it (generate, update, REST and GraphQL; default off)', async () => {
    const steps = [
      { name: 'One', components: [{ type: 'ShortInput', content: { question: 'Q1' } }] },
      { name: 'Two', components: [{ type: 'ShortInput', content: { question: 'Q2' } }] },
    ];
    const finalScreen = async (target: Form) => {
      const visitor = new Visitor(app);
      await visitor.get(`/s/${target.id}`);
      await visitor.submit(target, 0, { [field(componentAt(target, 0, 0))]: 'a' });
      const done = await visitor.submit(target, 1, { [field(componentAt(target, 1, 0))]: 'b' });
      return (await visitor.get(done.headers.get('location')!)).text();
    };
    const plain = await generateThroughApi(app, db, tenant, 'No repeat', steps);
    expect(plain.form.allowAnotherResponse).toBe(false);
    expect(await finalScreen(plain.form)).not.toContain('?new=1');
    const again = await generateThroughApi(app, db, tenant, 'Repeat', steps, { allowAnotherResponse: true });
    expect(again.form.allowAnotherResponse).toBe(true);
    expect(await finalScreen(again.form)).toContain(`<a class="fl-back" href="/s/${again.form.id}?new=1">Submit another response</a>`);
    const rest = await (await app.request(`/api/v1/forms/${again.form.id}`, { headers: { 'x-api-key': tenant.apiKey } })).json();
    expect(rest.data.allowAnotherResponse).toBe(true);
    const refused = await app.request(`/api/v1/forms/${again.form.id}`, jsonRequest('PATCH', { allowAnotherResponse: 'yes' }, { 'x-api-key': tenant.apiKey }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('allowAnotherResponse');
    const patched = await app.request(`/api/v1/forms/${again.form.id}`, jsonRequest('PATCH', { allowAnotherResponse: false }, { 'x-api-key': tenant.apiKey }));
    expect(patched.status).toBe(200);
    const graphql = await app.request(
      '/graphql',
      jsonRequest(
        'POST',
        { query: `mutation { updateForm(id: "${again.form.id}", input: { allowAnotherResponse: true }) { form { allowAnotherResponse version } } }` },
        { 'x-api-key': tenant.apiKey },
      ),
    );
    expect((await graphql.json()).data.updateForm.form).toEqual({ allowAnotherResponse: true, version: 3 });
  });

  it('gives check boxes and radio buttons targets of 24 × 24 px, and buttons the width of a phone', async () => {
    const page = await (await app.request(`/s/${form.id}`)).text();
    expect(page).toContain('.fl-choice input { accent-color: var(--c-accent); width: 24px; height: 24px;');
    expect(page).toContain('.fl-check input { accent-color: var(--c-accent); width: 24px; height: 24px;');
    expect(page).toMatch(
      /@media \(max-width: 480px\) \{\n {2}\.fl-actions \{ flex-direction: column-reverse; align-items: stretch; \}\n {2}\.fl-actions \.fl-button \{ width: 100%; \}/,
    );
  });
});
