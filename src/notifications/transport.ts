/**
 * Sending one message through an SMTP server with nodemailer. `smtp://` upgrades with STARTTLS (and
 * refuses to send without it unless `requireTls` is off); `smtps://` is TLS from the start. A private
 * CA is trusted the Node way (NODE_EXTRA_CA_CERTS); certificates are always verified.
 */
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { SmtpSettings } from '../config.ts';

/** Longest wait for the connection, the greeting, and any reply. */
const SMTP_TIMEOUT_MS = 20_000;
/** Longest SMTP reply kept in the delivery log. */
const MAX_REPLY_LENGTH = 300;

export type SendOutcome =
  | { ok: true; reply: string }
  /** `retry`: a 4xx reply or no reply at all (connection, TLS, timeout); else a 5xx: the message failed. */
  | { ok: false; retry: boolean; reply: string };

export interface MailTransport {
  send(message: Mail.Options, signal: AbortSignal): Promise<SendOutcome>;
  close(): void;
}

/** Test hooks: a CA the tests' SMTP server's certificate is signed by. */
export interface TransportOptions {
  ca?: string | Buffer | undefined;
}

export function createMailTransport(settings: SmtpSettings, options: TransportOptions = {}): MailTransport {
  const url = new URL(settings.url);
  const secure = url.protocol === 'smtps:';
  const transporter = nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && settings.requireTls,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    tls: { rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) },
  });
  return {
    async send(message, signal) {
      if (signal.aborted) return { ok: false, retry: true, reply: 'aborted: the node is stopping' };
      try {
        const info = (await transporter.sendMail(message)) as { response?: string };
        return { ok: true, reply: clip(info.response ?? '250 accepted') };
      } catch (error) {
        return failure(error);
      }
    },
    close: () => transporter.close(),
  };
}

/** A failed send: 5xx replies are final, everything else (4xx, no connection, a timeout) is retried. */
function failure(error: unknown): SendOutcome {
  const { responseCode, response, code, message } = error as {
    responseCode?: number;
    response?: string;
    code?: string;
    message?: string;
  };
  const reply = clip(response ?? [code, message].filter(Boolean).join(': '));
  return { ok: false, retry: !(typeof responseCode === 'number' && responseCode >= 500), reply };
}

const clip = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_REPLY_LENGTH);
