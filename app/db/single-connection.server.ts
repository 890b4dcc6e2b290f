import pg from 'pg';

/**
 * `task` on a connection of its own to the database at `url`, closed after it: for the scripts and
 * tests that talk to a server or database other than the app's pool (backups, clusters, admin
 * databases).
 */
export async function withConnection<T>(url: string, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}
