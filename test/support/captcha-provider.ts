/** A local HTTP server standing in for a captcha provider's siteverify endpoint (Turnstile and reCAPTCHA share it). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onFileEnd } from './cleanup.ts';

export function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts the stand-in (closed when the test file ends): it answers `success: true` when `accepts` says so
 * for a POST's `secret` and `response`, and records every call's form body in `calls`.
 */
export async function startCaptchaProvider(accepts: (secret: string | null, token: string | null) => boolean): Promise<{ url: string; calls: URLSearchParams[] }> {
  const calls: URLSearchParams[] = [];
  const provider = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const body = new URLSearchParams(text);
      calls.push(body);
      const success = request.method === 'POST' && accepts(body.get('secret'), body.get('response'));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  const url = `http://127.0.0.1:${await listen(provider)}/siteverify`;
  onFileEnd(() => new Promise<void>((resolve) => provider.close(() => resolve())));
  return { url, calls };
}
