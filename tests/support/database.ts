import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../app/db/embedded-postgres.server';
import { freePort } from './ports';

export interface TestDatabase {
  url: string;
  release(): Promise<void>;
}

/**
 * A fresh, empty database named `name`: created on the server of DATABASE_URL when set
 * (dropped first if a previous run left it), else on an embedded PostgreSQL in a temp dir.
 */
export async function prepareTestDatabase(name: string): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) return recreateOn(serverUrl, name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'onreco-test-pg-'));
  const port = await freePort();
  const embedded = await startEmbeddedPostgres(dataDir, port);
  const url = await recreateOn(embedded.url, name);
  return {
    url: url.url,
    async release() {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function recreateOn(serverUrl: string, name: string): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), release: async () => {} };
}
