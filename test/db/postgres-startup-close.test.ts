/**
 * PostgreSQL ending a new connection while postgres.js reads the array types it asks for once connected
 * (a restart's fast shutdown reaching a connection a moment old). The first statement fails with the
 * server's error, and nothing else: unpatched postgres.js 3.4.9 also rejected the types query's own
 * promise, which nobody awaited, and an unhandled rejection ends the process
 * (patches/postgres+3.4.9.patch). No real database: a TCP server here speaks just enough of the
 * protocol (trust authentication, then FATAL 57P01, ready for query and a close on the first query).
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';

/** Big-endian 32-bit integers, one after another. */
function int32(...values: number[]): Buffer {
  const buffer = Buffer.alloc(4 * values.length);
  values.forEach((value, i) => buffer.writeInt32BE(value, 4 * i));
  return buffer;
}
/** One protocol message: its type byte, its length (itself included) and its body. */
const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
const fields = (entries: [string, string][]) => Buffer.concat([...entries.map(([code, text]) => Buffer.from(`${code}${text}\0`)), Buffer.from([0])]);

const AUTHENTICATION_OK = message('R', int32(0));
const BACKEND_KEY = message('K', int32(4242, 1));
const READY = message('Z', Buffer.from('I'));
const ADMIN_SHUTDOWN = message(
  'E',
  fields([
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ]),
);

/** Answers the startup message as a trusting server, then ends the connection on whatever comes next. */
function shutDownAfterStartup(socket: Socket): void {
  let started = false;
  socket.on('data', () => {
    if (!started) {
      started = true;
      socket.write(Buffer.concat([AUTHENTICATION_OK, BACKEND_KEY, READY]));
      return;
    }
    // As a shutting-down server was seen to answer postgres.js's first query: the error, ready, closed.
    socket.end(Buffer.concat([ADMIN_SHUTDOWN, READY]));
  });
  socket.on('error', () => {});
}

const server = createServer(shutDownAfterStartup);
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  server.close();
});

it('a connection ended while postgres.js reads its array types fails the first statement with the server’s error, and no promise is left unhandled', async () => {
  const { port } = server.address() as AddressInfo;
  const client = postgres({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {}, backoff: () => 0.05 });
  try {
    await expect(client`select 1`).rejects.toMatchObject({ code: '57P01' });
    // An unhandled rejection is reported after the microtasks of the turn it happened in.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  } finally {
    await client.end({ timeout: 0 });
  }
});
