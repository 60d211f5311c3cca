/**
 * Benchmark child: the minimal baseline for the public JSON submissions — node:http and postgres.js
 * running the same SQL transactions the service runs for the bench's sessions
 * (responses/submissions.service.ts, events/outbox.ts, leads/leads.service.ts) and answering the same
 * JSON: start (POST /s/:formId/responses: form, begin, lead, counts, insert, event, commit), update
 * and finish (PATCH /s/:formId/responses/:id: form, response, begin, lock, [counts,] update, event(s),
 * commit). Written only for the benchmark: no framework, no validation of the answers, no rate limit,
 * no headers beyond content-type.
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

async function recordEvent(tx: postgres.TransactionSql, environmentId: string, formId: string, type: string, row: Record<string, unknown>, at: Date) {
  const id = `evt_${createId()}`;
  const payload = { type, timestamp: at.toISOString(), data: row };
  const notice = { type: 'outbox-event', eventId: id, environmentId, formId, eventType: type };
  await tx`
    with event as (
      insert into outbox_events (id, environment_id, type, form_id, response_id, payload, created_at)
      values (${id}, ${environmentId}, ${type}, ${formId}, ${row.id as string}, ${JSON.stringify(payload)}::jsonb, ${at.toISOString()}::timestamptz)
      returning seq
    )
    select (select seq from event) as seq,
           array(select id from webhook_endpoints where environment_id = ${environmentId} and enabled
                 and event_types @> array[${type}]::text[] and (form_ids is null or form_ids @> array[${formId}]::text[])) as endpoints,
           pg_notify(${CHANNEL}, ${JSON.stringify(notice)})::text as notified`;
}

const liveForm = async (formId: string) =>
  (await sql<FormRow[]>`select id, environment_id, status from forms where id = ${formId} and deleted_at is null`)[0];

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
    const [lead] = await tx`insert into leads (id, environment_id, email) values (${createId()}, ${form.environment_id}, ${email})
      on conflict (environment_id, email) do update set updated_at = ${now} returning id`;
    const [counts] = await tx`insert into lead_form_stats (lead_id, form_id, visits, completions) values (${lead!.id}, ${form.id}, 1, 0)
      on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 1, 0), completions = greatest(lead_form_stats.completions + 0, 0)
      returning visits, completions`;
    const [inserted] = await tx`insert into responses (id, environment_id, form_id, lead_id, session_id, data, finished, meta, ip, country,
        visited_form, completed_form, created_at, updated_at, data_updated_at)
      values (${createId()}, ${form.environment_id}, ${form.id}, ${lead!.id}, ${sessionKey(resumeToken)}, ${JSON.stringify(data)}::jsonb, false,
        ${JSON.stringify({ source: 'api' })}::jsonb, '127.0.0.1', '', ${counts!.visits}, ${counts!.completions}, ${now}, ${now}, ${now})
      returning *`;
    await recordEvent(tx, form.environment_id, form.id, 'response.created', inserted!, now);
    return inserted!;
  });
  send(res, 201, { id: row.id, visitorToken: 'baseline', finished: row.finished, status: 2, resumeToken });
}

async function update(req: IncomingMessage, res: ServerResponse, form: FormRow, responseId: string, body: { answers: Answers; finished?: boolean }) {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const [found] = await sql`select * from responses where form_id = ${form.id} and id = ${responseId}`;
  if (!token || !found || found.session_id !== sessionKey(token)) return send(res, 404, { message: 'Response not found' });
  const finish = body.finished === true;
  const now = new Date();
  const row = await sql.begin(async (tx) => {
    const [locked] = await tx`select * from responses where form_id = ${form.id} and session_id = ${found.session_id} for update`;
    const data = [...(locked!.data as unknown[]), ...shaped(body.answers)];
    let counts: { visits: number; completions: number } | undefined;
    if (finish) {
      [counts] = await tx`insert into lead_form_stats (lead_id, form_id, visits, completions) values (${locked!.lead_id}, ${form.id}, 0, 1)
        on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 0, 0), completions = greatest(lead_form_stats.completions + 1, 0)
        returning visits, completions` as unknown as { visits: number; completions: number }[];
    }
    const [updated] = await tx`update responses set data = ${JSON.stringify(data)}::jsonb, finished = ${finish}, updated_at = ${now},
        data_updated_at = ${Object.keys(body.answers).length > 0 ? now : locked!.data_updated_at},
        visited_form = ${counts?.visits ?? locked!.visited_form}, completed_form = ${counts?.completions ?? locked!.completed_form}
      where id = ${locked!.id} returning *`;
    await recordEvent(tx, form.environment_id, form.id, 'response.updated', updated!, now);
    if (finish) await recordEvent(tx, form.environment_id, form.id, 'response.finished', updated!, now);
    return updated!;
  });
  send(res, 200, { id: row.id, visitorToken: 'baseline', finished: row.finished, status: row.finished ? 4 : 2 });
}

const server = createServer(async (req, res) => {
  try {
    const match = /^\/s\/([^/]+)\/responses(?:\/([^/?]+))?$/.exec(req.url ?? '');
    if (!match) return send(res, 404, { message: 'Not found' });
    const form = await liveForm(match[1]!);
    if (!form || form.status !== 'published') return send(res, 404, { message: 'Form not found' });
    const body = await readJson(req);
    if (req.method === 'POST' && !match[2]) return await start(res, form, body);
    if (req.method === 'PATCH' && match[2]) return await update(req, res, form, match[2], body);
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
