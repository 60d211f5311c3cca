/** A stand-in scheduling provider for the browser tests' scheduler steps. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onFileEnd } from './cleanup.ts';

/**
 * A page on a free local port that reports a booking of `eventUri` to the page embedding it, as Calendly's
 * inline embed does; its origin. Stopped when the test file ends.
 */
export async function startCalendarStub(eventUri: string): Promise<string> {
  const page = `<!doctype html><title>Calendar</title><p>Pick a time</p><script>
window.parent.postMessage({ event: 'calendly.event_scheduled', payload: { event: { uri: ${JSON.stringify(eventUri)} }, invitee: { uri: 'https://api.calendly.com/invitees/1' } } }, '*');
</script>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onFileEnd(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
