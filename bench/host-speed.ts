/**
 * How fast this host is right now, from two fixed pieces of the stream's own work: the server's
 * compaction of one seeded answer text as jsonb_out writes it (db/jsonb-text.ts) and PostgreSQL's jsonb_out
 * (`data::text` of jsonb) over seeded rows, copied into a temporary table.
 * Every figure of a run moves with the host (a shared VM: the same code has streamed 41,444 and 25,906
 * responses/s half an hour apart), so the bench prints these at its start and end and runs compare
 * through them (docs/performance.md). The fastest of several tries is taken, the least disturbed.
 */
import postgres from 'postgres';
import { writeCompactJsonbText } from '../src/db/jsonb-text.ts';

export interface HostSpeed {
  /** Microseconds to compact one answer text of `textBytes` bytes, in this process. */
  jsMicros: number;
  textBytes: number;
  /** Microseconds of PostgreSQL per row for `data::text` (jsonb_out) over `rows` rows, round trip included. */
  pgMicros: number;
  rows: number;
}

const TRIES = 5;
const COMPACTIONS = 20_000;
const ROWS = 10_000;

export async function measureHostSpeed(url: string): Promise<HostSpeed> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // jsonb_out's text, whatever the answers' column type, so the workload is the same whichever way the answers are stored.
    const [sample] = await sql<{ text: string }[]>`select data::jsonb::text as text from responses where id like 'bench-resp-%' order by id limit 1`;
    if (!sample) throw new Error('host speed: no seeded response to measure with');
    const out = Buffer.allocUnsafeSlow(sample.text.length * 3);
    let jsMicros = Infinity;
    for (let t = 0; t < TRIES; t++) {
      const started = performance.now();
      for (let i = 0; i < COMPACTIONS; i++) writeCompactJsonbText(sample.text, out, 0);
      jsMicros = Math.min(jsMicros, ((performance.now() - started) * 1000) / COMPACTIONS);
    }
    let pgMicros = Infinity;
    let rows = 0;
    await sql`create temporary table host_speed_rows as select data::jsonb as data from responses limit ${ROWS}`;
    for (let t = 0; t < TRIES; t++) {
      const started = performance.now();
      const [row] = await sql<{ n: string }[]>`select count(length(data::text)) as n from host_speed_rows`;
      rows = Number(row!.n);
      pgMicros = Math.min(pgMicros, ((performance.now() - started) * 1000) / Math.max(rows, 1));
    }
    return { jsMicros, textBytes: Buffer.byteLength(sample.text), pgMicros, rows };
  } finally {
    await sql.end();
  }
}

export const describeHostSpeed = (s: HostSpeed) =>
  `compacting a ${s.textBytes.toLocaleString('en')}-byte answer text ${s.jsMicros.toFixed(2)} µs; PostgreSQL data::text ${s.pgMicros.toFixed(2)} µs a row (${s.rows.toLocaleString('en')} rows)`;
