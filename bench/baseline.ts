/**
 * Benchmark child: the minimal baseline for GET /api/v1/responses?formId= — node:http and
 * postgres.js running the same SQL the service runs (responses.service.ts `listingQuery`, as drizzle
 * renders it) and writing the same JSON. Written only for the benchmark: no framework, no GraphQL,
 * no logging, and no API-key check (it serves the one environment BENCH_ENVIRONMENT_ID).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import postgres from 'postgres';

const sql = postgres(process.env.BENCH_DATABASE_URL!, { max: 10, onnotice: () => {} });
const environmentId = process.env.BENCH_ENVIRONMENT_ID!;
const DROP_OFF_MS = 30 * 60_000;

interface Row {
  id: string;
  form_id: string;
  lead_id: string;
  finished: boolean;
  data: unknown[];
  meta: Record<string, unknown>;
  ip: string;
  country: string;
  visited_form: number;
  completed_form: number;
  version: string;
  created_at: Date;
  updated_at: Date;
  data_updated_at: Date;
}

const listing = (formId: string) =>
  sql<
    Row[]
  >`select "id", "form_id", "lead_id", "finished", "data", "meta", "ip", "country", "visited_form", "completed_form", "version", "created_at", "updated_at", "data_updated_at", to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from "responses" where ("responses"."form_id" = ${formId} and "responses"."environment_id" = ${environmentId} and "responses"."finished" and exists (select 1 from forms f where f.id = ${formId} and f.environment_id = ${environmentId} and f.deleted_at is null)) order by "responses"."created_at" desc, "responses"."id" desc limit ${11}`;

function toObject(row: Row, now: number) {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    dataUpdatedAt: row.data_updated_at.toISOString(),
    finished: row.finished,
    status: row.finished ? 4 : now - row.updated_at.getTime() >= DROP_OFF_MS ? 3 : 2,
    formId: row.form_id,
    version: row.version,
    data: row.data,
    meta: { ...row.meta, leadId: row.lead_id },
    personAttributes: { ip: row.ip, country: row.country, visitedForm: row.visited_form, completedForm: row.completed_form },
  };
}

const server = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse) {
  const formId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('formId');
  if (!formId) {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"formId is required"}');
    return;
  }
  try {
    const rows = await listing(formId);
    const now = Date.now();
    const body = JSON.stringify({ data: rows.slice(0, 10).map((row) => toObject(row, now)) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } catch {
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal server error"}');
  }
}
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => void sql.end().finally(() => process.exit(0)));
