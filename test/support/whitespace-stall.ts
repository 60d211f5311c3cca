/**
 * Long whitespace runs against a running server (shared by the process test and bench/whitespace-stall.ts):
 * a form with a LongInput and a ShortInput, then the 60 KB JSON answer (`"a" + 60,000 spaces + "b"`, inside the
 * public body limit) and a 120 KB multipart field posted to the page, while `/healthz` is probed in a loop.
 * Returns each request's status and the slowest `/healthz` answer seen during it (the event-loop stall).
 */
export interface StallResult {
  what: string;
  status: number;
  slowestHealthMs: number;
}

interface Demo {
  environmentId: string;
  templateId: string;
  apiKey: string;
}

async function makeForm(url: string, demo: Demo): Promise<{ formId: string; longId: string; shortId: string }> {
  const generated = await fetch(`${url}/api/v1/environments/${demo.environmentId}/forms/generate`, {
    method: 'POST',
    headers: { 'x-api-key': demo.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      sourceFormId: demo.templateId,
      name: 'Whitespace runs',
      steps: [
        {
          name: 'Text',
          components: [
            { type: 'LongInput', content: { question: 'Tell us' } },
            { type: 'ShortInput', content: { question: 'Role?' } },
          ],
        },
        { name: 'More', components: [{ type: 'ShortInput', content: { question: 'Anything else?' } }] },
      ],
    }),
  });
  if (generated.status !== 200) throw new Error(`generate answered ${generated.status}: ${await generated.text()}`);
  const formId = ((await generated.json()) as { result: { form: { id: string } } }).result.form.id;
  const definition = (await (await fetch(`${url}/s/${formId}/definition`)).json()) as { steps: { components: { id: string }[] }[] };
  const [long, short] = definition.steps[0]!.components;
  return { formId, longId: long!.id, shortId: short!.id };
}

/** Runs `send` while probing `/healthz` every 20 ms; the slowest probe answer is the stall. */
async function whileProbing(url: string, what: string, send: () => Promise<Response>): Promise<StallResult> {
  let sending = true;
  let slowest = 0;
  const probe = (async () => {
    while (sending) {
      const started = performance.now();
      // A reset (a pooled connection the stalled server let go) counts as answered when it failed.
      await fetch(`${url}/healthz`)
        .then((health) => health.arrayBuffer())
        .catch(() => undefined);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50)); // the probe loop is running
  // A connection the server dropped counts as status 0 (the stall is still measured).
  const status = await send()
    .then(async (response) => (await response.arrayBuffer(), response.status))
    .catch(() => 0);
  sending = false;
  await probe;
  return { what, status, slowestHealthMs: Math.round(slowest) };
}

export async function measureWhitespaceStalls(url: string, demo: Demo): Promise<StallResult[]> {
  const { formId, longId, shortId } = await makeForm(url, demo);
  const results: StallResult[] = [];
  results.push(
    await whileProbing(url, '60 KB JSON LongInput answer', () =>
      fetch(`${url}/s/${formId}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { [longId]: `a${' '.repeat(60_000)}b` } }),
      }),
    ),
  );
  const page = await fetch(`${url}/s/${formId}`);
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  await page.arrayBuffer();
  for (const [id, what] of [
    [longId, '120 KB multipart LongInput field'],
    [shortId, '120 KB multipart ShortInput field'],
  ] as const) {
    const body = new FormData();
    body.append(`c.${id}`, `a${' '.repeat(120_000)}b`);
    results.push(await whileProbing(url, what, () => fetch(`${url}/s/${formId}?step=0`, { method: 'POST', headers: { cookie }, body })));
  }
  return results;
}
