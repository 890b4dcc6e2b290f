import pg from 'pg';
import { createDb } from '../../app/db/db.server';
import { withConnection } from '../../app/db/single-connection.server';
import { distribute } from '../../app/db/distribute.server';
import { migrateToLatest } from '../../app/db/migrate.server';

export interface CitusNode {
  host: string;
  port: number;
}

/** CITUS_NODES=host:port,host:port,… (the coordinator first): the cluster the citus project is given. */
export function citusNodes(spec = process.env.CITUS_NODES): CitusNode[] {
  if (!spec) return [];
  return spec.split(',').map((entry) => {
    const [host, port] = entry.trim().split(':');
    if (!host || !/^\d+$/.test(port ?? '')) throw new Error(`CITUS_NODES: "${entry}" is not host:port`);
    return { host, port: Number(port) };
  });
}

const urlOf = (node: CitusNode, database: string) => `postgres://postgres@${node.host}:${node.port}/${database}`;

const onNode = <T>(node: CitusNode, database: string, work: (client: pg.Client) => Promise<T>): Promise<T> => withConnection(urlOf(node, database), work);

/**
 * A fresh database of this name on every node with the citus extension, the workers added to the
 * coordinator, the project's migrations run and the distribute step done, as an operator moving
 * a chain to Citus would do it. Returns the coordinator's URL.
 */
export async function prepareCitusDatabase(nodes: CitusNode[], database: string): Promise<string> {
  const [coordinator, ...workers] = nodes;
  if (!coordinator || workers.length === 0) throw new Error('CITUS_NODES names a coordinator and at least one worker');
  for (const node of nodes) {
    await onNode(node, 'postgres', async (client) => {
      await client.query(`drop database if exists ${database} with (force)`);
      await client.query(`create database ${database}`);
    });
    await onNode(node, database, (client) => client.query('create extension citus'));
  }
  await onNode(coordinator, database, async (client) => {
    await client.query('select citus_set_coordinator_host($1, $2)', [coordinator.host, coordinator.port]);
    for (const worker of workers) await client.query('select citus_add_node($1, $2)', [worker.host, worker.port]);
  });
  const url = urlOf(coordinator, database);
  const db = createDb(url, 2);
  try {
    await migrateToLatest(db);
    const outcome = await distribute(db);
    if (outcome.kind !== 'done') throw new Error(`the distribute step did not run: ${JSON.stringify(outcome)}`);
  } finally {
    await db.destroy();
  }
  return url;
}
