/**
 * The browser tier's shared parts: Debian's chromium, headless, with what this machine's closed network
 * needs (no background networking, component updates, sync or QUIC: otherwise it keeps dialling Google's
 * hosts), the app served for it, and a page's errors.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

/** Serves `app` on a free port of 127.0.0.1 for the browser; its base URL. The caller closes the server. */
export async function serveForBrowser(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<{ server: ServerType; base: string }> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Collects a page's script errors, CSP violations and failed loads (its frames' too), except the theme's
 * font service being unreachable (no network here) and what `alsoExpected` matches.
 */
export function watchPageErrors(page: Page, alsoExpected?: RegExp): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const text = `${message.text()} ${message.location().url}`;
    if (message.type() !== 'error' || /fonts\.googleapis|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED/.test(text)) return;
    if (alsoExpected?.test(text)) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
