/**
 * A `responseEvents` subscription read the way a client reads it: server-sent events from a fetch
 * Response (in-process `app.request` or a real server), collected as they arrive, with bounded waits.
 */

export interface SseMessage {
  event: string;
  /** The `data:` line, parsed (GraphQL over SSE sends JSON). */
  data: any;
  /** performance.now() when the message was read. */
  at: number;
}

export class SseStream {
  readonly messages: SseMessage[] = [];
  /** performance.now() when the body ended (undefined while it is open). */
  endedAt: number | undefined;
  /** The body ended as the server framed it (false: cut, or the reading failed). */
  complete = false;
  private readonly reading: Promise<void>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly response: Response) {
    this.reader = response.body?.getReader();
    this.reading = this.read();
  }

  private async read() {
    const reader = this.reader;
    if (!reader) {
      this.endedAt = performance.now();
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined) this.messages.push({ event, data: data ? JSON.parse(data) : undefined, at: performance.now() });
          this.wake?.();
        }
      }
      this.complete = true;
    } catch {
      this.complete = false;
    } finally {
      this.endedAt = performance.now();
      this.wake?.();
    }
  }

  /** The `next` payloads' responseEvents (null for an error payload). */
  get events(): { id: string; type: string; formId: string | null; data?: Record<string, any> }[] {
    return this.messages.filter((m) => m.event === 'next' && m.data?.data).map((m) => m.data.data.responseEvents);
  }

  /** The GraphQL errors the stream sent. */
  get errors(): { message: string; extensions?: { code?: string } }[] {
    return this.messages.filter((m) => m.event === 'next' && m.data?.errors).flatMap((m) => m.data.errors);
  }

  /** Waits until `condition` holds or `timeoutMs` passes; says whether it held. */
  async until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    return true;
  }

  /** Waits (bounded) for the body to end; true if it did. */
  ended(timeoutMs: number): Promise<boolean> {
    return this.until(() => this.endedAt !== undefined, timeoutMs);
  }

  /** Stops reading (the client goes away). */
  async cancel() {
    await this.reader?.cancel().catch(() => {});
    await this.reading;
  }
}

export const RESPONSE_EVENTS = 'subscription($formId: ID) { responseEvents(formId: $formId) { id type formId data } }';

/** The request of a `responseEvents` subscription over SSE (for fetch or app.request). */
export function subscriptionRequest(headers: Record<string, string>, formId?: string, signal?: AbortSignal): RequestInit {
  return {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ query: RESPONSE_EVENTS, variables: formId === undefined ? {} : { formId } }),
  };
}
