import { Socket } from 'node:net';

/**
 * Counts round trips to the database at `port` from this process: a write to it that follows one of its
 * replies starts one (writes before the reply are pipelined into the same trip). Patches net.Socket
 * until `stop()`. Used by bench/submissions.ts and test/db/db-statements.test.ts.
 */
export function watchRoundTrips(port: number) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the originals are called with apply(this)
  const { emit, write } = Socket.prototype;
  let trips = 0;
  let answered = true;
  Socket.prototype.emit = function (this: Socket, event: string, ...args: unknown[]) {
    if (event === 'data' && this.remotePort === port) answered = true;
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    if (this.remotePort === port && answered) {
      trips++;
      answered = false;
    }
    return write.apply(this, args as Parameters<typeof write>);
  };
  return {
    count: () => trips,
    /** The next write starts a new round trip (the caller's request begins). */
    reset: () => void (answered = true),
    stop: () => void Object.assign(Socket.prototype, { emit, write }),
  };
}
