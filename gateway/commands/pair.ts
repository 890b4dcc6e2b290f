import { Command } from 'commander';
import { ApiClient, describeFailure } from '../api-client';
import { fetchStoreConfigOnce } from '../config-refresher';
import { readBufferStats } from '../buffer';
import { ensureDataDir } from '../files';
import { BUFFER_FILE, DataDir } from '../state';
import { UsageError, action, commandConfig, withConfigOptions, type CliContext } from './common';

export function pairCommand(ctx: CliContext): Command {
  return withConfigOptions(new Command('pair'), ['server', 'requestTimeoutMs', 'bufferMaxRows'])
    .description("pair this gateway with its store using the PIN shown on the store management page; keeps the token (0600) and the store's sensor list")
    .requiredOption('--gateway-info <id>', "this gateway's ID as registered on the store (gateway_info)")
    .requiredOption('--pin <pin>', 'the PIN shown on the store management page')
    .action(
      action(ctx, async (opts: Record<string, unknown>) => {
        const config = commandConfig(ctx, opts);
        if (!config.server) throw new UsageError('pair needs --server URL (or "server" in the config file, or ONRECO_GATEWAY_SERVER)');
        const gatewayInfo = String(opts.gatewayInfo).trim();
        const pin = String(opts.pin).trim();
        if (!gatewayInfo || !pin) throw new UsageError('--gateway-info and --pin must not be empty');

        const client = new ApiClient({ server: config.server, timeoutMs: config.requestTimeoutMs });
        const paired = await client.pair(gatewayInfo, pin);
        if (!paired.ok) {
          const f = paired.failure;
          const why = f.kind === 'http' && f.status >= 400 && f.status < 500 ? `pairing refused: ${f.message}` : `pairing failed: ${describeFailure(f)}`;
          throw new UsageError(why);
        }

        ensureDataDir(config.dataDir);
        const dataDir = new DataDir(config.dataDir);
        const previous = dataDir.readPairing();
        dataDir.writePairing({
          server: config.server,
          gateway_info: gatewayInfo,
          gateway_token: paired.value.gatewayToken,
          store_id: paired.value.storeId,
          paired_at: new Date().toISOString(),
        });
        ctx.stdout(`Paired with store ${paired.value.storeId}; token saved in ${dataDir.path('pairing.json')} (mode 0600).\n`);
        if (previous && previous.store_id !== paired.value.storeId) {
          const buffered = readBufferStats(dataDir.path(BUFFER_FILE), config.bufferMaxRows)?.depth ?? 0;
          ctx.stdout(
            `Note: this replaces the pairing with store ${previous.store_id}` +
              (buffered ? `; ${buffered} reading(s) still buffered will be sent with the new token.\n` : '.\n'),
          );
        }

        const fetched = await fetchStoreConfigOnce(client.withToken(paired.value.gatewayToken), dataDir);
        if (!fetched.ok) {
          throw new UsageError(`paired, but could not fetch the store's sensor list (${fetched.error}); the daemon fetches it when it starts`);
        }
        const { config: store, skipped } = fetched.parsed;
        ctx.stdout(`Store configuration: ${store.sensors.length} sensor(s), one reading every ${store.samplingIntervalSeconds} s.\n`);
        for (const s of store.sensors) ctx.stdout(`  ${s.serialNo}  equipment ${s.equipmentId}${s.key ? '  (encrypted)' : ''}\n`);
        for (const s of skipped) ctx.stdout(`  left out: ${JSON.stringify(s.entry)}: ${s.reason}\n`);
      }),
    );
}
