/**
 * A real SMTP server for the e-mail tests (smtp-server): STARTTLS with the certificate in
 * test/fixtures/smtp, AUTH required, every accepted message parsed with mailparser. `behaviour` picks
 * the reply to the nth message (1-based): accept it, or answer with an SMTP code.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/smtp/${name}`, import.meta.url));
export const SMTP_CA = fixture('cert.pem');

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'p@ss word/1';

export interface Received {
  raw: string;
  parsed: ParsedMail;
  envelopeTo: string[];
}

export type SmtpBehaviour = (n: number) => 'accept' | { code: number; message: string };

export class SmtpReceiver {
  readonly accepted: Received[] = [];
  attempts = 0;
  /** How long the server takes to answer a message's data (a slow server: sends overlap a node's stop). */
  acceptDelayMs = 0;
  private server: SMTPServer | undefined;
  port = 0;

  constructor(
    private behaviour: SmtpBehaviour = () => 'accept',
    /** `plain`: no STARTTLS offered, AUTH over the plain connection. */
    private mode: 'starttls' | 'plain' = 'starttls',
  ) {}

  /** smtp://user:pass@127.0.0.1:port (STARTTLS). */
  get url() {
    return `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<this> {
    this.server = new SMTPServer({
      key: fixture('key.pem'),
      cert: fixture('cert.pem'),
      authMethods: ['PLAIN', 'LOGIN'],
      disabledCommands: this.mode === 'plain' ? ['STARTTLS'] : [],
      allowInsecureAuth: this.mode === 'plain',
      // AUTH only over TLS (smtp-server's default): a client that skipped STARTTLS cannot log in.
      onAuth: (auth, _session, callback) =>
        auth.username === SMTP_USER && auth.password === SMTP_PASSWORD ? callback(null, { user: auth.username }) : callback(new Error('535 Authentication failed')),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => void this.answer(chunks, session, callback));
      },
      logger: false,
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server as unknown as { server: { address(): AddressInfo } }).server.address().port;
    return this;
  }

  private async answer(chunks: Buffer[], session: SMTPServerSession, callback: (error?: Error | null) => void) {
    if (this.acceptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.acceptDelayMs));
    const action = this.behaviour(++this.attempts);
    if (action !== 'accept') {
      const error = Object.assign(new Error(action.message), { responseCode: action.code });
      callback(error);
      return;
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    simpleParser(raw)
      .then((parsed) => {
        this.accepted.push({ raw, parsed, envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
        callback();
      })
      .catch((error: Error) => callback(error));
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
