/**
 * Reading streamed bodies in tests, bounded: a listing or export that never ends (a cursor that does
 * not advance, a filter that lets every row in) fails the test once it has sent more than any answer
 * of the test could hold, instead of hanging it until the runner's timeout.
 */

/** Reads `reader` to its end, each chunk to `onChunk`; past `maxBytes` it cancels the stream and throws. */
export async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, onChunk: (chunk: Uint8Array) => void = () => {}): Promise<void> {
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      throw new Error(`the body went on past ${maxBytes} bytes`);
    }
    onChunk(value);
  }
}

/** A response's body as text, read as `readToEnd` reads it. */
export async function textOf(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  await readToEnd(response.body.getReader(), maxBytes, (chunk) => (text += decoder.decode(chunk, { stream: true })));
  return text + decoder.decode();
}
