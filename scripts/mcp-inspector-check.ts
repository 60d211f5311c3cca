/**
 * The MCP Inspector's command-line mode against a real server: starts src/main.ts on a fresh embedded
 * database, makes a key of `forms:read` and `responses:read` next to the first start's full key, and asks the
 * Inspector (`--cli --method tools/list --strict`) for each key's tools over Streamable HTTP (/mcp) and, for the
 * narrow key, over stdio (`formloom mcp`). Each listing must be exactly the key's tools; a tool missing or
 * extra, an Inspector that fails, or a tool schema it rates an error fails the check (exit 1).
 *
 * The Inspector is installed apart from the project (.ci/inspector, its own lock file) and needs a newer
 * Node than the project's: `tsx scripts/mcp-inspector-check.ts --node PATH --inspector PATH` (.ci/run
 * passes .ci/.node24's node and .ci/inspector's mcp-inspector).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { startServer } from '../test/support/server-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** The tools of a key holding every scope, and of a key holding `forms:read` and `responses:read`. */
const EVERY_TOOL = ['list_forms', 'get_form', 'generate_form', 'update_form', 'close_form', 'list_responses', 'get_response', 'form_summary', 'export_responses', 'list_webhooks'];
const READER_SCOPES = ['forms:read', 'responses:read'];
const READER_TOOLS = ['list_forms', 'get_form', 'list_responses', 'get_response', 'form_summary', 'export_responses'];

const { values: options } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    inspector: { type: 'string', default: join(ROOT, '.ci/inspector/node_modules/.bin/mcp-inspector') },
  },
});

/** The tool names the Inspector lists with `target` (a URL, or `--` and a command), failing on its errors. */
async function inspectorTools(label: string, target: string[]): Promise<string[]> {
  const args = [options.inspector, '--cli', '--method', 'tools/list', '--strict', ...target];
  const started = performance.now();
  const { stdout } = await run(options.node, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch((error: { code?: unknown; stdout?: string; stderr?: string }) => {
    throw new Error(`${label}: the Inspector failed (exit ${String(error.code)}):\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
  console.log(`${label}: ${names.join(' ')} (${Math.round(performance.now() - started)} ms)`);
  return names;
}

function expectTools(label: string, listed: string[], expected: string[]): string[] {
  const missing = expected.filter((name) => !listed.includes(name));
  const extra = listed.filter((name) => !expected.includes(name));
  return [...missing.map((name) => `${label}: ${name} is missing`), ...extra.map((name) => `${label}: ${name} is not one of this key's tools`)];
}

async function readerKey(url: string, environmentId: string, key: string): Promise<string> {
  const created = await fetch(`${url}/api/v1/environments/${environmentId}/keys`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'inspector check', scopes: READER_SCOPES, expires: '1h' }),
  });
  if (created.status !== 201) throw new Error(`creating the reader key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { key: string }).key;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'formloom-inspector-'));
  const server = await startServer({ DATA_DIR: dataDir });
  try {
    if (!server.demo) throw new Error('the first start printed no demo key');
    const full = server.demo.apiKey;
    const reader = await readerKey(server.url, server.demo.environmentId, full);
    const http = (key: string) => [`${server.url}/mcp`, '--transport', 'http', '--header', `x-api-key: ${key}`];
    const stdio = (key: string) => ['-e', `FORMLOOM_URL=${server.url}`, '-e', `FORMLOOM_API_KEY=${key}`, '--', process.execPath, join(ROOT, 'bin/formloom.mjs'), 'mcp'];
    const problems = [
      ...expectTools('HTTP, full key', await inspectorTools('HTTP, full key', http(full)), EVERY_TOOL),
      ...expectTools('HTTP, reader key', await inspectorTools('HTTP, reader key', http(reader)), READER_TOOLS),
      ...expectTools('stdio, reader key', await inspectorTools('stdio (formloom mcp), reader key', stdio(reader)), READER_TOOLS),
    ];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
