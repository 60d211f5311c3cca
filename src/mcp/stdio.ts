/**
 * `formloom mcp`: the MCP server over stdio for desktop clients, as a client of a running server. Each
 * message from stdin goes to the server's POST /mcp (Streamable HTTP, with the API key) and its answer
 * back to stdout, so the tools, resources and prompts are exactly the server's; the database is never
 * opened here. A request the server refuses at its edge (401, 403, 429) is answered with a JSON-RPC error
 * carrying the server's message.
 */
import type { Readable, Writable } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The JSON-RPC error code of a request the server could not answer (the implementation-defined range). */
const SERVER_REFUSED = -32000;

/** The server's own message in a refusal (its `{"message": …}` body), else the transport's error text. */
function serverMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const at = text.indexOf('{');
  const body = at < 0 ? undefined : text.slice(at);
  try {
    const message = body === undefined ? undefined : (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message : text;
  } catch {
    return text;
  }
}

/** The answer to a request the server refused at its edge: a JSON-RPC error with its message and HTTP status. */
function refusal(message: JSONRPCMessage, error: unknown): JSONRPCMessage | undefined {
  if (!('id' in message) || !('method' in message)) return undefined; // a notification or an answer: nothing to answer
  const status = (error as { code?: unknown }).code;
  const data = typeof status === 'number' ? { data: { status } } : {};
  return { jsonrpc: '2.0', id: message.id, error: { code: SERVER_REFUSED, message: serverMessage(error), ...data } };
}

/** Relays stdin/stdout to `url` (the server's /mcp) until stdin ends. */
export async function relayStdio(url: URL, apiKey: string, stdin: Readable = process.stdin, stdout: Writable = process.stdout): Promise<void> {
  const local = new StdioServerTransport(stdin, stdout);
  const remote = new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': apiKey } } });
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    stdin.once('end', resolve);
  });
  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      const answer = refusal(message, error);
      if (answer) void local.send(answer);
    });
  };
  remote.onmessage = (message) => void local.send(message);
  await remote.start();
  await local.start();
  await closed;
  await remote.close();
  await local.close();
}
