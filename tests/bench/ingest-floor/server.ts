import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { BUCKET_INPUT, mergeIntoBucketsSql } from '../../../app/models/measurement-buckets.server';

// The measuring stick of tests/bench/ingest-floor.ts: the least a server can do with a gateway's
// 20-reading gzip post and still store it. node:http, gunzip, JSON.parse, and one prepared
// 20-row insert through node-pg into the same measurements table, which also merges the rows it
// inserted into their 10-minute buckets with the console's own upsert (as the bucket trigger did
// before decision 283). The bearer token is the store id and the serial → sensor map is read once
// at start: no access check, no alerts, no states.
//   DATABASE_URL=… PORT=… node --import tsx tests/bench/ingest-floor/server.ts

const ROWS = 20;
const COLUMNS = 7;
const placeholders = Array.from({ length: ROWS }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(',')})`).join(',');
const INSERT = {
  name: 'floor_insert',
  text: `with stored as (
      insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity) values ${placeholders}
      on conflict do nothing returning ${BUCKET_INPUT.join(', ')}
    ) ${mergeIntoBucketsSql('stored')}`,
};

interface Reading { serial_no: string; measured_at: string; temperature: number | null; error: boolean; battery: number; receive_sensitivity: number }

/** YYYYMMDDHHmmss, Japan time. */
function japanTime(text: string): Date {
  const n = (from: number, to: number) => Number(text.slice(from, to));
  return new Date(Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8), n(8, 10) - 9, n(10, 12), n(12, 14)));
}

async function main() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  const sensors = new Map<string, number>();
  for (const row of (await pool.query<{ store_id: string; serial_no: string; equipment_id: number }>('select store_id, serial_no, equipment_id from sensors')).rows) {
    sensors.set(`${row.store_id} ${row.serial_no}`, row.equipment_id);
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const storeId = (request.headers.authorization ?? '').slice('Bearer '.length);
      const { readings } = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) as { readings: Reading[] };
      if (readings.length !== ROWS) throw new Error(`the floor takes ${ROWS} readings a post`);
      const values: unknown[] = [];
      for (const r of readings) values.push(storeId, sensors.get(`${storeId} ${r.serial_no}`), japanTime(r.measured_at), r.temperature, r.error, r.battery, r.receive_sensitivity);
      pool.query<{ n: number }>({ ...INSERT, values }).then(
        (result) => {
          const accepted = result.rows[0].n;
          const body = JSON.stringify({ accepted, duplicates: ROWS - accepted, rejected: [] });
          response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
        },
        (error: Error) => response.writeHead(500).end(error.message),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
