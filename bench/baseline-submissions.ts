/**
 * Benchmark child: the minimal baseline for the public JSON submissions — node:http and postgres.js
 * running the same SQL transactions the service runs for the bench's sessions
 * (responses/submissions.service.ts, events/outbox.ts, leads/leads.service.ts) and answering the same
 * JSON: start (POST /s/:formId/responses: form, then one statement for lead, counts, response and
 * event), update and finish (PATCH /s/:formId/responses/:id: form with the response and its version,
 * then one statement for the update, a finish's counts, and the events while the row is unchanged; else
 * begin, lock, counts, update and events pipelined, commit). Written only for the benchmark: no framework, no
 * validation of the answers, no rate limit, no headers beyond content-type.
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
  /** The response of an update, as read with the form, and its version (xmin). */
  response: Record<string, unknown> | null;
  response_version: string | null;
}

const sessionKey = (token: string) => `api:${createHash('sha256').update(token).digest('base64url')}`;

/** The stored shape of the bench's two answers (what validateAnswer makes of them). */
function shaped(answers: Answers) {
  return Object.entries(answers).map(([questionId, value]) => ({
    questionId,
    response:
      typeof value === 'object' && value
        ? { type: 'IdentityInfo', componentShapeVersion: '2.0', headline: 'Who are you?', ...value, fullName: 'Ada Lovelace' }
        : { type: 'Dropdown', componentShapeVersion: '2.0', headline: 'How big is your team?', selected: value },
  }));
}

/** The CTE body storing the deliveries of the CTE `event`, as every outbox statement does (events/outbox.ts). */
const DELIVERIES_OF_EVENT = `
  insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_seq, ordering_key, next_attempt_at)
  select 'msg_' || replace(gen_random_uuid()::text, '-', ''), event.environment_id, w.id, event.id, event.seq, coalesce(event.response_id, event.id), now()
  from event join webhook_endpoints w on w.environment_id = event.environment_id and w.enabled and w.event_types @> array[event.type]::text[]
    and (w.form_ids is null or w.form_ids @> array[event.form_id]::text[])`;
const deliveriesOfEvent = () => sql.unsafe(DELIVERIES_OF_EVENT);

/** The outbox's statement for the events of one change (events/outbox.ts `recordEvents`). */
async function recordEvents(tx: postgres.TransactionSql, environmentId: string, formId: string, types: string[], row: Record<string, unknown>, at: Date) {
  const events = types.map((type) => {
    const id = `evt_${createId()}`;
    return {
      id,
      type,
      payload: JSON.stringify({ type, timestamp: at.toISOString(), data: row }),
      notice: JSON.stringify({ type: 'outbox-event', eventId: id, environmentId, formId, eventType: type }),
    };
  });
  const values = events.flatMap((e) => [e.id, environmentId, e.type, formId, row.id as string, e.payload, at.toISOString()]);
  const rows = events.map((_, i) => `($${i * 7 + 1}, $${i * 7 + 2}, $${i * 7 + 3}, $${i * 7 + 4}, $${i * 7 + 5}, $${i * 7 + 6}::text::jsonb, $${i * 7 + 7}::timestamptz)`);
  const base = values.length;
  const notices = events.map((_, i) => `($${base + i * 2 + 1}, $${base + i * 2 + 2})`);
  await tx.unsafe(
    `with event as (
      insert into outbox_events (id, environment_id, type, form_id, response_id, payload, created_at) values ${rows.join(', ')}
      returning id, seq, environment_id, type, form_id, response_id
    ), delivery as (${DELIVERIES_OF_EVENT})
    select event.id, pg_notify('${CHANNEL}', notice.body)::text as notified
    from event join (values ${notices.join(', ')}) as notice (id, body) on notice.id = event.id
    order by event.seq`,
    [...values, ...events.flatMap((e) => [e.id, e.notice])],
  );
}

/** The form; for an update, with the response and its version in the same statement. */
const liveForm = async (formId: string, responseId: string | undefined) =>
  (
    await sql<FormRow[]>`select f.id, f.environment_id, f.status,
      ${responseId === undefined ? sql`null` : sql`to_jsonb(r)`} as response, ${responseId === undefined ? sql`null` : sql`r.xmin::text`} as response_version
      from forms f ${responseId === undefined ? sql`` : sql`left join responses r on r.form_id = f.id and r.id = ${responseId}`}
      where f.id = ${formId} and f.deleted_at is null`
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
  const email = String((Object.values(body.answers)[0] as { workEmailAddress?: string } | undefined)?.workEmailAddress ?? '').toLowerCase();
  const now = new Date();
  const responseId = createId();
  const eventId = `evt_${createId()}`;
  const known = {
    id: responseId,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    dataUpdatedAt: now.toISOString(),
    finished: false,
    status: 2,
    formId: form.id,
    version: '2.0',
    data,
  };
  const payload = JSON.stringify({ type: 'response.created', timestamp: now.toISOString(), data: known });
  const notice = JSON.stringify({ type: 'outbox-event', eventId, environmentId: form.environment_id, formId: form.id, eventType: 'response.created' });
  // One statement, its own transaction: lead, counts, response, event, deliveries and NOTIFY.
  const [row] = await sql`with lead as (
      insert into leads (id, environment_id, email) values (${createId()}, ${form.environment_id}, ${email})
      on conflict (environment_id, email) do update set updated_at = now() returning id
    ), stats as (
      insert into lead_form_stats (lead_id, form_id, visits, completions) select id, ${form.id}, 1, 0 from lead
      on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 1, 0), completions = greatest(lead_form_stats.completions + 0, 0)
      returning lead_id, visits, completions
    ), changed as (
      insert into responses (id, environment_id, form_id, lead_id, session_id, data, finished, meta, ip, country,
        visited_form, completed_form, version, created_at, updated_at, data_updated_at)
      select ${responseId}, ${form.environment_id}, ${form.id}, stats.lead_id, ${sessionKey(resumeToken)}, ${JSON.stringify(data)}::text::json, false,
        ${JSON.stringify({ source: 'api' })}::text::jsonb, (select case ip_storage when 'none' then '' else '127.0.0.1' end from environments where id = ${form.environment_id}), '',
        stats.visits, stats.completions, '2.0', ${now}, ${now}, ${now}
      from stats returning id, finished, lead_id, ip, visited_form, completed_form
    ), event as (
      insert into outbox_events (id, environment_id, type, form_id, response_id, payload, created_at)
      select ${eventId}, ${form.environment_id}, 'response.created', ${form.id}, changed.id,
        jsonb_set(${payload}::text::jsonb, '{data}', (${payload}::text::jsonb -> 'data') || jsonb_build_object('meta', jsonb_build_object('source', 'api', 'leadId', changed.lead_id),
          'personAttributes', jsonb_build_object('ip', changed.ip, 'country', '', 'visitedForm', changed.visited_form, 'completedForm', changed.completed_form))), ${now}
      from changed returning id, seq, environment_id, type, form_id, response_id
    ), delivery as (${deliveriesOfEvent()})
    select changed.id, changed.finished, pg_notify(${CHANNEL}, ${notice})::text from changed, event`;
  send(res, 201, { id: row!.id, visitorToken: 'baseline', finished: row!.finished, status: 2, resumeToken });
}

async function update(req: IncomingMessage, res: ServerResponse, form: FormRow, body: { answers: Answers; finished?: boolean }) {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const seen = form.response;
  const sessionId = seen?.session_id as string | undefined;
  if (!token || !sessionId || sessionId !== sessionKey(token)) return send(res, 404, { message: 'Response not found' });
  const finish = body.finished === true;
  const now = new Date();
  if (!seen!.finished) {
    // While the row is the version read: the update (a finish locks the row and moves the lead's counts)
    // and its events in one statement.
    const data = [...(seen!.data as unknown[]), ...shaped(body.answers)];
    const updated = { ...seen!, data, finished: finish, updated_at: now, data_updated_at: now };
    const events = (finish ? ['response.updated', 'response.finished'] : ['response.updated']).map((type) => {
      const id = `evt_${createId()}`;
      return {
        id,
        type,
        payload: JSON.stringify({ type, timestamp: now.toISOString(), data: updated }),
        notice: JSON.stringify({ type: 'outbox-event', eventId: id, environmentId: form.environment_id, formId: form.id, eventType: type }),
      };
    });
    const set = sql`data = ${JSON.stringify(data)}::text::json, updated_at = ${now}, data_updated_at = ${now}`;
    const unchanged = sql`id = ${seen!.id as string} and xmin::text = ${form.response_version} and not finished`;
    const ctes = finish
      ? sql`locked as (select id, lead_id from responses where ${unchanged} for update),
          stats as (insert into lead_form_stats (lead_id, form_id, visits, completions) select lead_id, ${form.id}, 0, 1 from locked
            on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 0, 0), completions = greatest(lead_form_stats.completions + 1, 0)
            returning visits, completions),
          changed as (update responses set ${set}, finished = true, visited_form = stats.visits, completed_form = stats.completions
            from locked, stats where responses.id = locked.id returning responses.id, responses.visited_form, responses.completed_form)`
      : sql`changed as (update responses set ${set} where ${unchanged} returning id, visited_form, completed_form)`;
    const [stored] = await sql`with ${ctes},
      e as (select * from unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.type)}::text[], ${events.map((e) => e.payload)}::text[],
        ${events.map((e) => e.notice)}::text[]) with ordinality as e (id, type, payload, notice, ord)),
      event as (
        insert into outbox_events (id, environment_id, type, form_id, response_id, payload, created_at)
        select e.id, ${form.environment_id}, e.type, ${form.id}, changed.id, jsonb_set(e.payload::jsonb, '{data}',
          (e.payload::jsonb -> 'data') || jsonb_build_object('visited_form', changed.visited_form, 'completed_form', changed.completed_form)), ${now}
        from changed cross join e order by e.ord returning id, seq, environment_id, type, form_id, response_id
      ), delivery as (${deliveriesOfEvent()})
      select changed.id, pg_notify(${CHANNEL}, e.notice)::text from changed, event join e on e.id = event.id order by event.seq`;
    if (stored) return send(res, 200, { id: stored.id, visitorToken: 'baseline', finished: finish, status: finish ? 4 : 2 });
  }
  const row = await sql.begin(async (tx) => {
    const [locked] = await tx`select * from responses where form_id = ${form.id} and session_id = ${sessionId} for update`;
    const data = [...(locked!.data as unknown[]), ...shaped(body.answers)];
    let counts: { visits: number; completions: number } | undefined;
    if (finish) {
      [counts] = (await tx`insert into lead_form_stats (lead_id, form_id, visits, completions) values (${locked!.lead_id}, ${form.id}, 0, 1)
        on conflict (lead_id, form_id) do update set visits = greatest(lead_form_stats.visits + 0, 0), completions = greatest(lead_form_stats.completions + 1, 0)
        returning visits, completions`) as unknown as { visits: number; completions: number }[];
    }
    const dataUpdatedAt: Date = Object.keys(body.answers).length > 0 ? now : locked!.data_updated_at;
    const visited: number = counts?.visits ?? locked!.visited_form;
    const completed: number = counts?.completions ?? locked!.completed_form;
    const updated: Record<string, unknown> = {
      ...locked!,
      data,
      finished: finish,
      updated_at: now,
      data_updated_at: dataUpdatedAt,
      visited_form: visited,
      completed_form: completed,
    };
    // The update and the events pipelined, as the service sends them.
    await Promise.all([
      tx`update responses set data = ${JSON.stringify(data)}::text::json, finished = ${finish}, updated_at = ${now},
        data_updated_at = ${dataUpdatedAt}, visited_form = ${visited}, completed_form = ${completed}
      where id = ${locked!.id}`,
      recordEvents(tx, form.environment_id, form.id, finish ? ['response.updated', 'response.finished'] : ['response.updated'], updated, now),
    ]);
    return { id: locked!.id as string, finished: finish };
  });
  send(res, 200, { id: row.id, visitorToken: 'baseline', finished: row.finished, status: row.finished ? 4 : 2 });
}

const server = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse) {
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
}
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => void sql.end().finally(() => process.exit(0)));
