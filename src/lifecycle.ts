/**
 * The HTTP server's timeouts, how it closes connections, and its graceful shutdown.
 *
 * Closing a connection (a 413, any `Connection: close` answer) is a lingering close: the server sends
 * its answer and its FIN, then keeps reading, and discarding, whatever the client still sends (the rest
 * of an oversized body) until the client closes too, for at most `LINGER_MS`. Closing with unread bytes
 * would make the kernel send a reset, which can destroy the answer before the client has read it.
 *
 * On SIGTERM/SIGINT (`exitGracefullyOnSignals`):
 * 1. `/readyz` answers 503 at once, so a load balancer stops sending, and the `onDrainStart` hooks run:
 *    live subscriptions (server-sent events, which never finish by themselves) end now, cleanly, rather
 *    than being cut at the deadline, and the delivery loops claim nothing more (src/main.ts).
 * 2. Ready to drain, for the drain delay (DRAIN_DELAY_MS): the node still accepts connections and
 *    answers every request, on new and idle keep-alive connections alike, and every answer carries
 *    `Connection: close` (also the answer of a request in flight, if its headers have not gone out), so
 *    each connection closes after its next answer and no client loses a request sent meanwhile. A
 *    second signal ends the delay early.
 * 3. The listener closes. Idle keep-alive connections are not closed under their clients: each closes
 *    when its keep-alive time (announced in `Keep-Alive: timeout=…`) runs out, after which no client
 *    sends on it, or after its next answer. Requests in flight finish.
 * 4. At the cut-off (the shutdown timeout, counted from the signal, less a reserve for closing the
 *    database) whatever still runs, typically a long environment stream to a slow client, is ended: its
 *    connection is closed (FIN, not a reset), so the client sees a chunked body without its final chunk,
 *    which every HTTP client reports as an incomplete response, never as a complete listing.
 * 5. The database closes and the process exits 0, within the shutdown timeout.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/** Whether the process is draining: set by the drain, read by the app's readiness check. */
export interface DrainState {
  draining: boolean;
  /** Run once when the drain begins (the app ends its live subscriptions here). */
  onDrainStart?: (() => void)[];
}

/**
 * Options for `http.createServer` (serve()'s `serverOptions`) from config.http: a client that sends its
 * headers or body too slowly is answered 408 and disconnected, an idle keep-alive connection is
 * closed. Node checks the header/request deadlines every `connectionsCheckingInterval` (30 s by
 * default, which would let a slow client stay far past its deadline), so that interval follows the
 * shortest deadline.
 */
export function httpServerOptions(http: Config['http']) {
  return {
    headersTimeout: http.headersTimeoutMs,
    // Node requires requestTimeout ≥ headersTimeout (0 would mean no limit).
    requestTimeout: Math.max(http.requestTimeoutMs, http.headersTimeoutMs),
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.floor(http.headersTimeoutMs / 2)),
  };
}

/** Time kept after the cut-off for closing the database (a fifth of the timeout, 250 ms to 1 s). */
const closeReserveMs = (shutdownTimeoutMs: number) => Math.min(1_000, Math.max(250, shutdownTimeoutMs * 0.2));

/**
 * Longest a closing connection keeps reading what its client still sends. Long enough for any client to
 * have read the answer sent before; a client still sending after that meets a reset, having had its answer.
 */
const LINGER_MS = 5_000;

/**
 * Closes `socket` the lingering way: FIN after what is queued, then read (and discard) until the client
 * closes its side or `LINGER_MS` passes. Node's HTTP server closes a `Connection: close` connection with
 * `socket.destroySoon()`; this replaces that method on each of the server's sockets.
 */
function lingeringClose(socket: Socket) {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  if (socket.writable) socket.end();
  // The HTTP parser keeps reading the socket (the rest of a body is parsed and dumped); when the client
  // closes, the socket has ended both ways and destroys itself.
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}
const lingering = new WeakSet<Socket>();

interface ConnectionState {
  /** Responses not yet finished on this connection (more than one only with pipelining). */
  responses: Set<ServerResponse>;
}

export interface GracefulServer {
  /** Drains the server, and resolves with how it went (it never rejects). */
  drain(): Promise<{ cutConnections: number; drainMs: number }>;
  /** Ends the drain delay now (a second signal). */
  skipDelay(): void;
}

/**
 * Tracks the server's connections and responses for the drain, and gives each connection a lingering
 * close. Call before the server accepts its first connection.
 */
export function trackServer(server: Server, state: DrainState, options: { shutdownTimeoutMs: number; drainDelayMs: number; logger: Logger }): GracefulServer {
  const connections = new Map<Socket, ConnectionState>();
  let endDelay: (() => void) | undefined;
  let delaySkipped = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { responses: new Set() });
    socket.once('close', () => connections.delete(socket));
    socket.destroySoon = () => lingeringClose(socket);
  });

  // Before the app's own listener, which may write the response synchronously.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.responses.add(res);
    // Node closes the connection after an answer that says so (lingering, above).
    if (state.draining) res.setHeader('Connection', 'close');
    res.once('close', () => connection.responses.delete(res));
  });

  async function drain() {
    const started = performance.now();
    state.draining = true;
    for (const hook of state.onDrainStart ?? []) {
      try {
        hook();
      } catch (error) {
        options.logger.error({ err: error }, 'drain hook failed');
      }
    }
    // Busy connections: the response in progress says `Connection: close` if it still can.
    for (const connection of connections.values()) {
      for (const res of connection.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    // The cut-off counts from the signal; leave room to close the database after cutting what still runs.
    const cutOffMs = Math.max(0, options.shutdownTimeoutMs - closeReserveMs(options.shutdownTimeoutMs));

    // Ready to drain: keep serving while the load balancer notices the readiness 503.
    const delayMs = Math.min(options.drainDelayMs, cutOffMs);
    if (delayMs > 0 && !delaySkipped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        endDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    endDelay = undefined;

    // Stop listening, but keep the connections: http.Server#close would also close the idle ones at
    // once, under any client sending a request on one right now. Node closes each idle connection when
    // its keep-alive time runs out; 'close' comes when the last connection has closed.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));

    let cutConnections = 0;
    let timer: NodeJS.Timeout | undefined;
    const cutOff = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, cutOffMs - (performance.now() - started)));
    });
    await Promise.race([closed, cutOff]);
    clearTimeout(timer);
    const remaining = [...connections.keys()].filter((socket) => !socket.destroyed);
    if (remaining.length > 0) {
      cutConnections = remaining.length;
      options.logger.warn({ connections: cutConnections }, 'drain cut-off reached; closing connections still in use');
      // destroy(), not end(): a stream blocked on a client that does not read would never flush. The
      // kernel still sends what it holds, then FIN.
      for (const socket of remaining) socket.destroy();
      await closed;
    }
    return { cutConnections, drainMs: Math.round(performance.now() - started) };
  }

  return {
    drain,
    skipDelay() {
      delaySkipped = true;
      endDelay?.();
    },
  };
}

/** Kept between the end of closing and the backstop, for the exit itself. */
const EXIT_MARGIN_MS = 100;

/**
 * SIGTERM/SIGINT: drain the server, close the resources, exit 0. A backstop exits 1 if the whole
 * shutdown is still stuck at `shutdownTimeoutMs` (it should never be: the drain cuts what runs).
 */
export function exitGracefullyOnSignals(
  graceful: GracefulServer,
  options: { shutdownTimeoutMs: number; drainDelayMs: number; logger: Logger; closeResources: () => Promise<void> },
): void {
  let stopping = false;
  const onSignal = async (signal: NodeJS.Signals) => {
    const { logger } = options;
    if (stopping) {
      // A second signal: the operator does not want to wait for the load balancer.
      logger.info({ signal }, 'drain delay ended by a second signal');
      graceful.skipDelay();
      return;
    }
    stopping = true;
    logger.info({ signal, shutdownTimeoutMs: options.shutdownTimeoutMs, drainDelayMs: options.drainDelayMs }, 'draining');
    setTimeout(
      () => {
        logger.error('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      Math.max(options.shutdownTimeoutMs, closeReserveMs(options.shutdownTimeoutMs)),
    ).unref();
    const started = performance.now();
    const { cutConnections, drainMs } = await graceful.drain();
    // Closing waits at most for what is left of the timeout (a database that went away can't be
    // closed politely); the process exits 0 all the same: it stopped serving cleanly.
    const left = Math.max(0, options.shutdownTimeoutMs - (performance.now() - started) - EXIT_MARGIN_MS);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      options.closeResources().then(
        () => true,
        (error: unknown) => {
          logger.error({ err: error }, 'closing resources failed');
          return true;
        },
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), left))),
    ]);
    clearTimeout(timer);
    if (!closed) logger.warn({ waitedMs: Math.round(left) }, 'resources did not close in time');
    logger.info({ drainMs, cutConnections }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void onSignal(signal));
  process.on('SIGINT', (signal) => void onSignal(signal));
}
