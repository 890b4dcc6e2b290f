import { appendFileSync } from 'node:fs';
import { Command } from 'commander';
import { sleep } from '../backoff';
import { CounterGuard, explainAdvertisement, judgeSensorAdvertisement, type DecodedAdvertisement } from '../decoders/index';
import { formatCaptureLine } from '../sources/capture';
import { createSource } from '../sources/index';
import type { HeardAdvertisement } from '../sources/types';
import { DataDir, type StoreSensor } from '../state';
import { UsageError, action, commandConfig, commandLogger, withConfigOptions, type CliContext } from './common';
import { decodedFields } from './decode';

interface DeviceSummary {
  address: string;
  name?: string;
  heard: number;
  /** Frames the daemon would refuse (a store sensor's plain frames when it has a key, replays, undecodable). */
  refused: number;
  lastRefusal?: string;
  rssi?: number;
  format?: string;
  temperature?: number;
  sensor?: StoreSensor;
}

export function scanCommand(ctx: CliContext): Command {
  return withConfigOptions(new Command('scan'), ['source', 'adapter', 'bluezStallSeconds', 'simulateSpeed'])
    .description("print what the gateway hears, decoded, including devices that are not the store's sensors")
    .option('--duration <seconds>', 'stop after this many seconds (default: until Ctrl-C; a replay stops at its end)')
    .option('--all', 'also print advertisements that no decoder reads (phones, beacons, ...)')
    .option('--json', 'one JSON object per advertisement')
    .option('--record <file>', 'append every advertisement heard to a capture file (replayable with run --source replay:FILE)')
    .action(
      action(ctx, async (opts: Record<string, unknown>) => {
        const config = commandConfig(ctx, opts);
        const logger = commandLogger(ctx, config);
        const duration = opts.duration === undefined ? undefined : Number(opts.duration);
        if (duration !== undefined && !(duration > 0)) throw new UsageError('--duration takes a number of seconds');
        let sensors: StoreSensor[] = [];
        try {
          sensors = new DataDir(config.dataDir).readStoreConfig()?.config.sensors ?? [];
        } catch (e) {
          logger.warn({ err: e }, 'cannot read the stored sensor list; showing devices without it');
        }
        const bySerial = new Map(sensors.map((s) => [s.serialNo, s]));
        const devices = new Map<string, DeviceSummary>();
        const record = opts.record ? String(opts.record) : null;
        const guard = new CounterGuard({ hasKey: (address) => bySerial.get(address)?.key != null });

        const print = (heard: HeardAdvertisement) => {
          const { adv } = heard;
          if (record) appendFileSync(record, formatCaptureLine(heard) + '\n');
          const sensor = bySerial.get(adv.address);
          // A store sensor's frame is judged as the daemon judges it (its key, downgrades, replays):
          // what the daemon refuses is shown as refused, never as a reading.
          let decoded: DecodedAdvertisement | null = null;
          let refused: string | null = null;
          let error: string | null = null;
          if (sensor) {
            const verdict = judgeSensorAdvertisement(adv, sensor, guard);
            if (verdict.ok) decoded = verdict.value;
            else refused = verdict.reason;
          } else {
            const explained = explainAdvertisement(adv);
            if (explained.ok) decoded = explained.value;
            else error = explained.reason;
          }
          const device = devices.get(adv.address) ?? { address: adv.address, heard: 0, refused: 0, sensor };
          devices.set(adv.address, device);
          if (refused) {
            device.refused += 1;
            device.lastRefusal = refused;
          } else {
            device.heard += 1;
          }
          if (adv.name) device.name = adv.name;
          if (adv.rssi !== undefined) device.rssi = adv.rssi;
          if (decoded) {
            device.format = decoded.format;
            device.temperature = decoded.temperature;
          }
          if (!decoded && !sensor && !opts.all) return;
          const who = sensor ? `store sensor ${sensor.equipmentId}` : 'not a store sensor';
          if (opts.json) {
            const line = {
              ts: new Date(heard.ts).toISOString(),
              address: adv.address,
              rssi: adv.rssi ?? null,
              name: adv.name ?? null,
              store_sensor: sensor ? sensor.equipmentId : null,
              ...(decoded ? { decoded: decodedFields(decoded) } : refused ? { refused } : { error }),
            };
            ctx.stdout(JSON.stringify(line) + '\n');
            return;
          }
          const time = new Date(heard.ts).toISOString().slice(11, 19);
          const what = decoded ? describe(decodedFields(decoded)) : refused ? `REFUSED ${refused}` : `(${error})`;
          ctx.stdout(`${time}  ${adv.address}  ${String(adv.rssi ?? '-').padStart(4)} dBm  ${what}  [${who}]${adv.name ? `  "${adv.name}"` : ''}\n`);
        };

        let ended: () => void = () => undefined;
        const end = new Promise<string>((resolve) => {
          ended = () => resolve('end of capture');
        });
        let failed: Error | null = null;
        const source = createSource(config, () => sensors, {
          onAdvertisement: print,
          onEnd: ended,
          onError: (e) => {
            failed = e;
            ended();
          },
        }, logger);
        const stopTimer = new AbortController();
        await source.start();
        try {
          await Promise.race([
            ctx.waitForStop(),
            end,
            ...(duration !== undefined ? [sleep(duration * 1000, stopTimer.signal).then(() => 'duration')] : []),
          ]);
        } finally {
          stopTimer.abort();
          await source.stop();
        }
        if (failed) throw failed;
        if (!opts.json) ctx.stdout(summary([...devices.values()], sensors));
      }),
    );
}

function describe(fields: Record<string, unknown>): string {
  const parts = [String(fields.format)];
  if (fields.temperature !== undefined) parts.push(`${fields.temperature} °C`);
  if (fields.humidity !== undefined) parts.push(`${fields.humidity} %RH`);
  if (fields.battery !== undefined) parts.push(`battery ${fields.battery} %`);
  if (fields.battery_mv !== undefined) parts.push(`${fields.battery_mv} mV`);
  if (fields.error) parts.push('SENSOR ERROR');
  return parts.join('  ');
}

function summary(devices: DeviceSummary[], sensors: StoreSensor[]): string {
  const lines = ['', `Heard ${devices.length} device(s).`];
  // A store sensor counts as heard only for frames the daemon would use.
  const bySerial = new Map(devices.map((d) => [d.address, d]));
  const missing = sensors.filter((s) => !(bySerial.get(s.serialNo)?.heard ?? 0));
  lines.push(`Store sensors heard: ${sensors.length - missing.length} of ${sensors.length}.`);
  for (const s of missing) {
    const d = bySerial.get(s.serialNo);
    lines.push(`  NOT HEARD: ${s.serialNo} (equipment ${s.equipmentId})` + (d?.refused ? `: ${d.refused} frame(s) refused, last: ${d.lastRefusal}` : ''));
  }
  const refusing = sensors.map((s) => bySerial.get(s.serialNo)).filter((d): d is DeviceSummary => Boolean(d && d.heard && d.refused));
  if (refusing.length) {
    lines.push(`Store sensors with refused frames beside good ones (${refusing.length}):`);
    for (const d of refusing) lines.push(`  ${d.address}  ${d.refused} refused, last: ${d.lastRefusal}`);
  }
  const decodedOthers = devices.filter((d) => !d.sensor && d.format);
  if (decodedOthers.length) {
    lines.push(`Sensors in range that are not this store's (${decodedOthers.length}):`);
    for (const d of decodedOthers) lines.push(`  ${d.address}  ${d.format}  RSSI ${d.rssi ?? '-'}${d.name ? `  "${d.name}"` : ''}`);
  }
  return lines.join('\n') + '\n';
}
