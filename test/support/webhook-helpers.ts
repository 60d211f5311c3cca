/** A real HTTP receiver for webhook tests: verifies every signature with the standardwebhooks verifier. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: { type: string; timestamp: string; data: any };
  verified: boolean;
}

/** What the receiver does with the nth request (1-based): answer a status (at once or after a while), or hang until the sender gives up. */
export type Behaviour = (n: number, request: IncomingMessage, received: Received) => number | { status: number; afterMs: number } | 'hang';

export class Receiver {
  readonly accepted: Received[] = [];
  readonly requests: Received[] = [];
  unverified = 0;
  secret = '';
  private server: Server | undefined;
  private hanging = new Set<ServerResponse>();

  constructor(private behaviour: Behaviour = () => 200) {}

  get url() {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hook`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        try {
          new Webhook(this.secret).verify(raw, req.headers as Record<string, string>);
          verified = true;
        } catch {
          this.unverified++;
        }
        const entry: Received = { id: String(req.headers['webhook-id']), body: JSON.parse(raw), verified };
        this.requests.push(entry);
        const action = this.behaviour(this.requests.length, req, entry);
        if (action === 'hang') {
          this.hanging.add(res);
          return;
        }
        const status = typeof action === 'number' ? action : action.status;
        const answer = () => {
          if (status >= 200 && status < 300 && verified) this.accepted.push(entry);
          res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        };
        if (typeof action === 'number') answer();
        else setTimeout(answer, action.afterMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop() {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** Waits (bounded) until `condition` holds. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, tries = 500, everyMs = 20) {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
