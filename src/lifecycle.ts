/**
 * The HTTP server's timeouts and its graceful shutdown.
 *
 * On SIGTERM/SIGINT (`drainAndExit`):
 * 1. `/readyz` answers 503 at once, so a load balancer stops sending, and the `onDrainStart` hooks run:
 *    live subscriptions (server-sent events, which never finish by themselves) end now, cleanly, rather
 *    than being cut at the deadline.
 * 2. After one turn of the event loop (so a request whose bytes arrived with the signal has been read
 *    and counts as in flight, not idle) the listener closes and idle keep-alive connections close.
 * 3. Requests in flight finish. Each busy connection's next response carries `Connection: close` and
 *    the connection closes after it, also when that response's headers went out before the signal
 *    (a stream): no connection is reused once the drain has begun.
 * 4. At the cut-off (the shutdown timeout less a reserve for closing the database) whatever still
 *    runs, typically a long environment stream to a slow client, is ended: its connection is closed
 *    (FIN, not a reset), so the client sees a chunked body without its final chunk, which every HTTP
 *    client reports as an incomplete response, never as a complete listing.
 * 5. The database closes and the process exits 0, within the shutdown timeout.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

interface ConnectionState {
  /** Responses not yet finished on this connection (more than one only with pipelining). */
  responses: Set<ServerResponse>;
}

export interface GracefulServer {
  /** Drains the server, runs `closeResources`, and resolves with how it went (it never rejects). */
  drain(): Promise<{ cutConnections: number; drainMs: number }>;
}

/**
 * Tracks the server's connections and responses so a drain can close each connection as soon as its
 * last response is done. Call before the server accepts its first connection.
 */
export function trackServer(server: Server, state: DrainState, options: { shutdownTimeoutMs: number; logger: Logger }): GracefulServer {
  const connections = new Map<Socket, ConnectionState>();

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { responses: new Set() });
    socket.once('close', () => connections.delete(socket));
  });

  // Before the app's own listener, which may write the response synchronously.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket);
    if (!connection) return;
    connection.responses.add(res);
    if (state.draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      connection.responses.delete(res);
      // A response whose headers said keep-alive (sent before the drain began): Node would keep the
      // connection open for the next request; close it once written.
      if (state.draining && connection.responses.size === 0 && !req.socket.destroyed) req.socket.destroySoon();
    });
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
    // One turn of the event loop first: requests that arrived together with the signal are read now,
    // which makes their connections busy rather than idle.
    await new Promise((resolve) => setImmediate(resolve));
    const closed = new Promise<void>((resolve) => server.close(() => resolve())); // also closes idle connections

    // Leave room to close the database after cutting what still runs.
    const reserveMs = closeReserveMs(options.shutdownTimeoutMs);
    let cutConnections = 0;
    let timer: NodeJS.Timeout | undefined;
    const cutOff = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, options.shutdownTimeoutMs - reserveMs));
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

  return { drain };
}

/** Kept between the end of closing and the backstop, for the exit itself. */
const EXIT_MARGIN_MS = 100;

/**
 * SIGTERM/SIGINT: drain the server, close the resources, exit 0. A backstop exits 1 if the whole
 * shutdown is still stuck at `shutdownTimeoutMs` (it should never be: the drain cuts what runs).
 */
export function exitGracefullyOnSignals(
  graceful: GracefulServer,
  options: { shutdownTimeoutMs: number; logger: Logger; closeResources: () => Promise<void> },
): void {
  let stopping = false;
  const onSignal = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const { logger } = options;
    logger.info({ signal, shutdownTimeoutMs: options.shutdownTimeoutMs }, 'draining');
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, Math.max(options.shutdownTimeoutMs, closeReserveMs(options.shutdownTimeoutMs))).unref();
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
