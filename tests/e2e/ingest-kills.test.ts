import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { runIngestKills } from '../support/ingest-kills';
import { seededRandom, testSeed } from '../support/seed';

// kill -9 of the web process while simulated gateways (the daemon's buffer and uploader) post to
// it: a few kills here, 100 in tests/bench/ingest-kills.ts.
const db = createDb(inject('databaseUrl'), 2);
afterAll(() => db.destroy());

describe('kill -9 of the web process under gateways with their retries', () => {
  it('keeps every reading a 2xx answer covered once, and loses nothing the gateways buffered', async () => {
    const result = await runIngestKills({
      db, databaseUrl: inject('databaseUrl'), kills: 8, gateways: 3, prefix: 'IKILL', random: seededRandom(testSeed('web process kill -9 under gateways', 17)),
    });
    expect(result.kills).toBe(8);
    expect(result.readingsAnswered).toBeGreaterThan(0);
    expect(result).toMatchObject({ answeredMissing: 0, wrongValues: 0, lost: 0, unexpected: 0, doubled: 0, bufferLeft: 0, bucketsWrong: 0 });
    expect(result.rowsStored).toBe(result.readingsGenerated);
    // Eight starts of the web process: seconds each on a quiet machine, more beside the rest of the suite.
  }, 300_000);
});
