#!/usr/bin/env node
/**
 * A webhook receiver for trying formloom's webhooks on this machine (README.md, "A webhook"). It checks
 * each delivery's Standard Webhooks signature with the endpoint's signing secret, answers 204, and
 * prints the event. A delivery whose signature does not check out is answered 401 and printed as such.
 *
 *   WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs [--port 4001] [--once]
 *
 * --once: exit after the first event. Without an event for 60 seconds it exits by itself (status 1).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4001' }, once: { type: 'boolean', default: false } } });
const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error("webhook-receiver: set WEBHOOK_SECRET to the endpoint's signing secret (whsec_…)");
  process.exit(2);
}
const webhook = new Webhook(secret);
const IDLE_MS = 60_000;

let idle;
const waitForNext = () => {
  clearTimeout(idle);
  idle = setTimeout(() => {
    console.log(`webhook-receiver: no webhook within ${IDLE_MS / 1000} s; stopping`);
    process.exit(1);
  }, IDLE_MS);
};

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      // Throws unless webhook-signature is the secret's HMAC of webhook-id, webhook-timestamp and the
      // body, and webhook-timestamp is within five minutes of now.
      event = webhook.verify(body, request.headers);
    } catch (error) {
      console.log(`webhook-receiver: refused a delivery: ${error.message}`);
      response.writeHead(401).end();
      return;
    }
    console.log(`webhook-receiver: ${event.type}, signature checked, webhook-id ${request.headers['webhook-id']}`);
    console.log(JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data }));
    response.writeHead(204).end(() => (values.once ? process.exit(0) : waitForNext()));
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`webhook-receiver: listening on http://127.0.0.1:${values.port}/`);
  waitForNext();
});
