/**
 * Benchmark child: the minimal baseline for the public JSON submissions — node:http and postgres.js
 * running the same SQL transactions the service runs for the bench's sessions
 * (responses/submissions.service.ts, events/outbox.ts, leads/leads.service.ts) and answering the same
 * JSON: start (POST /s/:formId/responses: form, begin, lead and counts, insert, event, commit), update
 * and finish (PATCH /s/:formId/responses/:id: form and the response's session, begin, lock, [counts,]
 * update and event(s) pipelined, commit). Written only for the benchmark: no framework, no validation
 * of the answers, no rate limit, no headers beyond content-type.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createId } from '../src/ids.ts';
import postgres from 'postgres';

const sql = postgres(process.env.BENCH_DATABASE_URL!, { max: 10, onnotice: () => {} });
const CHANNEL = 'formloom_events';

type Answers = Record<string, unknown>;
interface FormRow {
  id: string;
  environment_id: string;
  status: string;
  response_session: string | null;
}

const sessionKey = (token: string) => `api:${createHash('sha256').update(token).digest('base64url')}`;

/** The stored shape of the bench's two answers (what validateAnswer makes of them). */
function shaped(answers: Answers) {
  return Object.entries(answers).map(([questionId, value]) => ({
    questionId,
    response:
      typeof value === 'object' && value
        ? { type: 'IdentityInfo', componentShapeVersion: '2.0', headline: 'Who are you?', ...(value as object), fullName: 'Ada Lovelace' }
        : { type: 'Dropdown', componentShapeVersion: '2.0', headline: 'How big is your team?', selected: value },
  }));
}

/** The outbox's statement for the events of one change (events/outbox.ts `recordEvents`). */
async function recordEvents(tx: postgres.TransactionSql, environmentId: string, formId: string, types: string[], row: Record<string, unknown>, at: Date) {
  const events = types.map((type) => {
    const id = `evt_${createId()}`;
    return { id, type, payload: JSON.stringify({ type, timestamp: at.toISOString(), data: row }), notice: JSON.stringify({ type: 'outbox-event', eventId: id, environmentId, formId, eventType: type }) };
  });
  const values = events.flatMap((e) => [e.id, environmentId, e.type, formId, row.id as string, e.payload, at.toISOString()]);
  const rows = events.map((_, i) => `($${i * 7 + 1}, $${i * 7 + 2}, $${i * 7 + 3}, $${i * 7 + 4}, $${i * 7 + 5}, $${i * 7 + 6}::jsonb, $${i * 7 + 7}::timestamptz)`);
  const base = values.length;
  const notices = events.map((_, i) => `($${base + i * 2 + 1}, $${base + i * 2 + 2})`);
  await tx.unsafe(
    `with event as (
      insert into outbox_events (id, environment_id, type, form_id, response_id, payload, created_at) values ${rows.join(', ')}
      returning id, seq, environment_id, type, form_id
    )
    select event.id, event.seq,
           array(select w.id from webhook_endpoints w where w.environment_id = event.environment_id and w.enabled
                 and w.event_types @> array[event.type]::text[] and (w.form_ids is null or w.form_ids @> array[event.form_id]::text[])) as endpoints,
           pg_notify('${CHANNEL}', notice.body)::text as notified
    from event join (values ${notices.join(', ')}) as notice (id, body) on notice.id = event.id
    order by event.seq`,
    [...values, ...events.flatMap((e) => [e.id, e.notice])],
  );
}

/** The form; for an update, with the session of the response in the same statement. */
const liveForm = async (formId: string, responseId: string | undefined) =>
  (
    await sql<FormRow[]>`select id, environment_id, status,
      ${responseId === undefined ? sql`null` : sql`(select r.session_id from responses r where r.form_id = forms.id and r.id = ${responseId})`} as response_session
      from forms where id = ${formId} and deleted_at is null`
  )[0];

async function readJson(req: IncomingMessage): Promise<{ answers: Answers; finished?: boolean }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const send = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function start(res: ServerResponse, form: FormRow, body: { answers: Answers; finished?: boolean }) {
  const resumeToken = randomBytes(32).toString('base64url');
  const data = shaped(body.answers);
  const email = String((Object.values(body.answers)[0] as { workEmailAddress?: string })?.workEmailAddress ?? '').toLowerCase();
  const now = new Date();
  const row = await sql.begin(async (tx) => {
    const [counts] = await tx`with lead as (
        insert into leads (id, environment_id, email) values (${createId()}, ${form.environment_id}, ${email})
        on conflict (environment_id, email) do update set updated_at = now() returning id
      )
      insert into lead_form_stats (lead_id, form_id, visits, completions) select id, ${form.id}, 1, 0 from lead
      on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 1, 0), completions = greatest(lead_form_stats.completions + 0, 0)
      returning lead_id, visits, completions`;
    const [inserted] = await tx`insert into responses (id, environment_id, form_id, lead_id, session_id, data, finished, meta, ip, country,
        visited_form, completed_form, created_at, updated_at, data_updated_at)
      values (${createId()}, ${form.environment_id}, ${form.id}, ${counts!.lead_id}, ${sessionKey(resumeToken)}, ${JSON.stringify(data)}::jsonb, false,
        ${JSON.stringify({ source: 'api' })}::jsonb, '127.0.0.1', '', ${counts!.visits}, ${counts!.completions}, ${now}, ${now}, ${now})
      returning *`;
    await recordEvents(tx, form.environment_id, form.id, ['response.created'], inserted!, now);
    return inserted!;
  });
  send(res, 201, { id: row.id, visitorToken: 'baseline', finished: row.finished, status: 2, resumeToken });
}

async function update(req: IncomingMessage, res: ServerResponse, form: FormRow, body: { answers: Answers; finished?: boolean }) {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const sessionId = form.response_session;
  if (!token || !sessionId || sessionId !== sessionKey(token)) return send(res, 404, { message: 'Response not found' });
  const finish = body.finished === true;
  const now = new Date();
  const row = await sql.begin(async (tx) => {
    const [locked] = await tx`select * from responses where form_id = ${form.id} and session_id = ${sessionId} for update`;
    const data = [...(locked!.data as unknown[]), ...shaped(body.answers)];
    let counts: { visits: number; completions: number } | undefined;
    if (finish) {
      [counts] = await tx`insert into lead_form_stats (lead_id, form_id, visits, completions) values (${locked!.lead_id}, ${form.id}, 0, 1)
        on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 0, 0), completions = greatest(lead_form_stats.completions + 1, 0)
        returning visits, completions` as unknown as { visits: number; completions: number }[];
    }
    const dataUpdatedAt: Date = Object.keys(body.answers).length > 0 ? now : locked!.data_updated_at;
    const visited: number = counts?.visits ?? locked!.visited_form;
    const completed: number = counts?.completions ?? locked!.completed_form;
    const updated: Record<string, unknown> = { ...locked!, data, finished: finish, updated_at: now, data_updated_at: dataUpdatedAt, visited_form: visited, completed_form: completed };
    // The update and the events pipelined, as the service sends them.
    await Promise.all([
      tx`update responses set data = ${JSON.stringify(data)}::jsonb, finished = ${finish}, updated_at = ${now},
        data_updated_at = ${dataUpdatedAt}, visited_form = ${visited}, completed_form = ${completed}
      where id = ${locked!.id}`,
      recordEvents(tx, form.environment_id, form.id, finish ? ['response.updated', 'response.finished'] : ['response.updated'], updated, now),
    ]);
    return { id: locked!.id as string, finished: finish };
  });
  send(res, 200, { id: row.id, visitorToken: 'baseline', finished: row.finished, status: row.finished ? 4 : 2 });
}

const server = createServer(async (req, res) => {
  try {
    const match = /^\/s\/([^/]+)\/responses(?:\/([^/?]+))?$/.exec(req.url ?? '');
    if (!match) return send(res, 404, { message: 'Not found' });
    const form = await liveForm(match[1]!, match[2]);
    if (!form || form.status !== 'published') return send(res, 404, { message: 'Form not found' });
    const body = await readJson(req);
    if (req.method === 'POST' && !match[2]) return await start(res, form, body);
    if (req.method === 'PATCH' && match[2]) return await update(req, res, form, body);
    return send(res, 405, { message: 'Method not allowed' });
  } catch (error) {
    // A load generator closing its connections mid-request at the end of a run is no failure.
    if (!req.destroyed) process.stderr.write(`baseline-submissions: ${String(error)}\n`);
    if (!res.headersSent && !res.destroyed) send(res, 500, { message: 'Internal server error' });
  }
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => void sql.end().finally(() => process.exit(0)));
