/**
 * The write path: public submissions. A respondent's session through the JSON API is three requests,
 * each one submission (a transaction that creates or updates the response and records its events):
 * start (POST /s/:formId/responses, step 1's answers), update (PATCH, step 2's answers), finish (PATCH,
 * finished: true). The page path is two form posts (step 1, then the last step, which finishes).
 *
 * `sessionRequests` gives autocannon's request cycle for each (one connection walks sessions one
 * after another); `countStatements` runs sessions in-process on a counting postgres.js client and
 * reports SQL statements and round trips (a statement sent after the database last answered starts a
 * round trip; statements pipelined before its answer share it) per submission.
 */
import type { Request as AutocannonRequest } from 'autocannon';
import { drizzle } from 'drizzle-orm/postgres-js';
import { pino } from 'pino';
import postgres from 'postgres';
import { createApp } from '../src/app.ts';
import { watchRoundTrips } from './round-trips.ts';
import { loadConfig } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import type { Db } from '../src/db/client.ts';
import { instrumentClient } from '../src/db/instrument.ts';
import { DatabaseMetrics } from '../src/metrics.ts';

/** Answers of the bench forms (bench/seed.ts: the template's two steps, ids bench-q-<step>-<component>). */
export const STEP_ONE = { 'bench-q-0-1': { firstName: 'Ada', lastName: 'Lovelace', workEmailAddress: '' } };
export const STEP_TWO = { 'bench-q-1-0': '11-50' };
/** Step one's answer with a fresh work address each time (each session its own lead, as in real traffic). */
const stepOne = () => ({ 'bench-q-0-1': { ...STEP_ONE['bench-q-0-1'], workEmailAddress: `ada.${Math.random().toString(36).slice(2)}@acme-corp.example` } });

type Context = Record<string, unknown>;
type Pick = () => string;

const json = { 'content-type': 'application/json' };

/** Start, update, finish: each a submission. */
export function apiSessionRequests(pickForm: Pick): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      setupRequest: (request: AutocannonRequest, context: Context) => {
        context.formId = pickForm();
        return { ...request, path: `/s/${String(context.formId)}/responses`, headers: json, body: JSON.stringify({ answers: stepOne() }) };
      },
      onResponse: (status: number, body: string, context: Context) => {
        if (status !== 201) return;
        const started = JSON.parse(body) as { id: string; resumeToken: string };
        context.path = `/s/${String(context.formId)}/responses/${started.id}`;
        context.auth = `Bearer ${started.resumeToken}`;
      },
    },
    {
      method: 'PATCH',
      setupRequest: (request: AutocannonRequest, context: Context) => ({
        ...request,
        path: context.path as string,
        headers: { ...json, authorization: context.auth as string },
        body: JSON.stringify({ answers: STEP_TWO }),
      }),
    },
    {
      method: 'PATCH',
      setupRequest: (request: AutocannonRequest, context: Context) => ({
        ...request,
        path: context.path as string,
        headers: { ...json, authorization: context.auth as string },
        body: JSON.stringify({ answers: {}, finished: true }),
      }),
    },
  ];
}

const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The page: step 1 posted without a cookie (a new session), then the last step with the session's cookie. */
export function pageSessionRequests(pickForm: Pick): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      setupRequest: (request: AutocannonRequest, context: Context) => {
        context.formId = pickForm();
        const identity = stepOne()['bench-q-0-1'];
        return {
          ...request,
          path: `/s/${String(context.formId)}?step=0`,
          headers: form,
          body: formBody({
            'c.bench-q-0-1.firstName': identity.firstName,
            'c.bench-q-0-1.lastName': identity.lastName,
            'c.bench-q-0-1.workEmailAddress': identity.workEmailAddress,
          }),
        };
      },
      onResponse: (_status: number, _body: string, context: Context, headers?: Record<string, string | string[]>) => {
        const setCookie = headers?.['set-cookie'] ?? headers?.['Set-Cookie'];
        const cookies = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0]);
        context.cookie = cookies.join('; ');
      },
    },
    {
      method: 'POST',
      setupRequest: (request: AutocannonRequest, context: Context) => ({
        ...request,
        path: `/s/${String(context.formId)}?step=1`,
        headers: { ...form, cookie: context.cookie as string },
        body: formBody({ 'c.bench-q-1-0': STEP_TWO['bench-q-1-0'] }),
      }),
    },
  ];
}

/**
 * Statements and round trips per submission, counted on the app's own requests in-process, through the
 * client wrapper the app uses (db/instrument.ts, which prepares statements). A round trip is a write to
 * the database after its last reply: a statement postgres.js must describe first (unprepared, with
 * parameters) costs two, the second one sent on the server's answer.
 */
export async function countStatements(databaseUrl: string, formId: string, sessions = 20) {
  let statements = 0;
  const roundTrips = watchRoundTrips(Number(new URL(databaseUrl).port || 5432));
  const client = postgres(databaseUrl, { max: 10, onnotice: () => {}, debug: () => void statements++ });
  const db = drizzle(instrumentClient('postgres', client, new DatabaseMetrics('postgres', 10)), { schema }) as unknown as Db;
  const config = { ...loadConfig({ API_RATE_LIMIT: String(1e9), PUBLIC_RATE_LIMIT: String(1e9) }), databaseUrl, logLevel: 'silent' as const };
  const app = createApp({ config, db, logger: pino({ level: 'silent' }), adminToken: 'bench-admin-token-0123456789' });
  const counted = async (run: () => Promise<Response>, expected: number) => {
    const [s, r] = [statements, roundTrips.count()];
    roundTrips.reset();
    const response = await run();
    if (response.status !== expected) throw new Error(`submission answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const text = await response.text();
    return { text, statements: statements - s, roundTrips: roundTrips.count() - r };
  };
  const totals = { start: { statements: 0, roundTrips: 0 }, update: { statements: 0, roundTrips: 0 }, finish: { statements: 0, roundTrips: 0 } };
  try {
    for (let i = 0; i < sessions + 2; i++) {
      const start = await counted(
        () => Promise.resolve(app.request(`/s/${formId}/responses`, { method: 'POST', headers: json, body: JSON.stringify({ answers: stepOne() }) })),
        201,
      );
      const body = JSON.parse(start.text) as { id: string; resumeToken: string };
      const headers = { ...json, authorization: `Bearer ${body.resumeToken}` };
      const path = `/s/${formId}/responses/${body.id}`;
      const update = await counted(() => Promise.resolve(app.request(path, { method: 'PATCH', headers, body: JSON.stringify({ answers: STEP_TWO }) })), 200);
      const finish = await counted(() => Promise.resolve(app.request(path, { method: 'PATCH', headers, body: JSON.stringify({ answers: {}, finished: true }) })), 200);
      if (i < 2) continue; // warm-up (first statements prepare)
      for (const [name, c] of [
        ['start', start],
        ['update', update],
        ['finish', finish],
      ] as const) {
        totals[name].statements += c.statements / sessions;
        totals[name].roundTrips += c.roundTrips / sessions;
      }
    }
  } finally {
    roundTrips.stop();
    await client.end();
  }
  return totals;
}
