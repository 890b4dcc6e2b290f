import { Command } from 'commander';
import { explainAdvertisement, type Advertisement, type DecodedAdvertisement } from '../decoders/index';
import { CaptureLineError, openCaptureLines, parseCaptureLine } from '../sources/capture';
import { normalizeAddress } from '../state';
import { UsageError, action, withConfigOptions, type CliContext } from './common';

/** What `decode` prints: the fields the format carries, batteryMv as battery_mv. */
export function decodedFields(d: DecodedAdvertisement): Record<string, unknown> {
  const out: Record<string, unknown> = { format: d.format };
  if (d.temperature !== undefined) out.temperature = d.temperature;
  if (d.humidity !== undefined) out.humidity = d.humidity;
  if (d.battery !== undefined) out.battery = d.battery;
  if (d.batteryMv !== undefined) out.battery_mv = d.batteryMv;
  if (d.error) out.error = true;
  return out;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `fcd2:40020a09` -> ['fcd2', bytes]; the id is 4 hex digits (a 0x prefix is allowed). */
function parsePair(flag: string, value: string): [string, Uint8Array] {
  const m = /^(?:0x)?([0-9a-fA-F]{4}):((?:[0-9a-fA-F]{2})*)$/.exec(value.trim().replace(/\s+/g, ''));
  if (!m) throw new UsageError(`${flag} takes ID:HEX, a 4-hex-digit id and hex bytes (got ${JSON.stringify(value)})`);
  return [m[1].toLowerCase(), Uint8Array.from(Buffer.from(m[2], 'hex'))];
}

function parseKey(value: string | undefined): Uint8Array | undefined {
  if (value === undefined) return undefined;
  const hex = value.trim();
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new UsageError('--key takes the key as hex (32 digits for a 16-byte key)');
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function decodeCommand(ctx: CliContext): Command {
  return withConfigOptions(new Command('decode'), [])
    .description('decode one advertisement (or every line of a capture) and print {format, temperature, humidity, battery, battery_mv}')
    .option('--service-data <uuid16:hex>', 'service data: 16-bit UUID and the bytes after it (repeatable)', collect)
    .option('--manufacturer-data <companyid:hex>', 'manufacturer data: company id and the bytes after it (repeatable)', collect)
    .option('--mac <address>', "the sender's address (some formats need it, e.g. for decryption)")
    .option('--key <hex>', "the sensor's encryption key")
    .option('--name <localname>', 'the advertised local name (some formats are recognised by it)')
    .option('--file <capture.jsonl>', 'decode every line of a capture file (.jsonl or .jsonl.gz), one JSON line each, in order')
    .action(
      action(ctx, async (opts: Record<string, unknown>) => {
        const key = parseKey(opts.key as string | undefined);
        const options = key ? { key } : {};
        if (opts.file) {
          if (opts.serviceData || opts.manufacturerData) throw new UsageError('use either --file or --service-data/--manufacturer-data');
          await decodeFile(ctx, String(opts.file), options);
          return;
        }
        const serviceData = ((opts.serviceData as string[] | undefined) ?? []).map((v) => parsePair('--service-data', v));
        const manufacturerData = ((opts.manufacturerData as string[] | undefined) ?? []).map((v) => parsePair('--manufacturer-data', v));
        if (serviceData.length + manufacturerData.length === 0) {
          throw new UsageError('nothing to decode: give --service-data UUID16:HEX, --manufacturer-data COMPANYID:HEX or --file CAPTURE.jsonl');
        }
        let address = '00:00:00:00:00:00';
        if (opts.mac !== undefined) {
          const normalized = normalizeAddress(String(opts.mac));
          if (!normalized) throw new UsageError(`--mac ${JSON.stringify(opts.mac)} is not a BLE address (AA:BB:CC:DD:EE:FF)`);
          address = normalized;
        }
        const adv: Advertisement = {
          address,
          manufacturerData: Object.fromEntries(manufacturerData),
          serviceData: Object.fromEntries(serviceData),
        };
        if (opts.name !== undefined) adv.name = String(opts.name);
        const result = explainAdvertisement(adv, options);
        if (!result.ok) throw new UsageError(`cannot decode: ${result.reason}`);
        ctx.stdout(JSON.stringify(decodedFields(result.value)) + '\n');
      }),
    );
}

async function decodeFile(ctx: CliContext, file: string, options: { key?: Uint8Array }): Promise<void> {
  const lines = await openCaptureLines(file).catch((e: Error) => {
    throw new UsageError(`cannot read ${file}: ${e.message}`);
  });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo += 1;
    if (!line.trim()) continue;
    let out: Record<string, unknown>;
    try {
      const { adv } = parseCaptureLine(line);
      const result = explainAdvertisement(adv, options);
      out = result.ok ? decodedFields(result.value) : { error: result.reason };
    } catch (e) {
      if (!(e instanceof CaptureLineError)) throw e;
      out = { error: `line ${lineNo}: ${e.message}` };
    }
    ctx.stdout(JSON.stringify(out) + '\n');
  }
}
