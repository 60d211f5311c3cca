/**
 * GraphiQL's page, with a Content-Security-Policy that lets it run offline and nothing else. The page
 * (from @graphql-yoga/render-graphiql) inlines its whole bundle, so the policy allows exactly its inline
 * script and style by hash. The page is the same for every request: it is rendered and hashed once.
 */
import { createHash } from 'node:crypto';
import type { GraphiQLOptions } from 'graphql-yoga';

export interface GraphiQLPage {
  html: string;
  contentSecurityPolicy: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const inlineHashes = (html: string, tag: 'script' | 'style') => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => sha256(match[1]!));

function graphiqlContentSecurityPolicy(html: string): string {
  return [
    "default-src 'none'",
    `script-src ${inlineHashes(html, 'script').join(' ')}`,
    // The editor (Monaco) adds <style> elements and style attributes at run time, which no hash can name.
    "style-src 'unsafe-inline'",
    // Monaco's language workers are started from blob: URLs the page's script creates.
    'worker-src blob:',
    "connect-src 'self'",
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

let page: Promise<GraphiQLPage> | undefined;

/**
 * The page for yoga's options (they don't vary per request). The bundle is ~9 MB of script that costs
 * ~80 MB of memory once loaded, so it is imported on the first GraphiQL request, not at start.
 */
export function graphiqlPage(options: GraphiQLOptions): Promise<GraphiQLPage> {
  page ??= import('@graphql-yoga/render-graphiql')
    .then(({ renderGraphiQL }) => {
      const html = renderGraphiQL(options);
      return { html, contentSecurityPolicy: graphiqlContentSecurityPolicy(html) };
    })
    .catch((error: unknown) => {
      page = undefined; // try again on the next request rather than failing until a restart
      throw error;
    });
  return page;
}
