// The LTE signal as the modem tells it, through ModemManager on the system D-Bus, behind an
// interface with a replay source (like the BLE sources), so that no test needs a modem.
//   ModemManager: org.freedesktop.ModemManager1, ObjectManager.GetManagedObjects lists the modems
//   (/org/freedesktop/ModemManager1/Modem/N); their org.freedesktop.ModemManager1.Modem.Signal
//   interface has `Rate` (seconds, 0 = not polling) and `Lte` (a{sv}: rssi, rsrp, rsrq, snr in dB/dBm),
//   filled only after Setup(rate). A value the modem does not give stays absent: null, never made up.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const MM_SERVICE = 'org.freedesktop.ModemManager1';
export const MM_PATH = '/org/freedesktop/ModemManager1';
export const MM_MODEM_PREFIX = '/org/freedesktop/ModemManager1/Modem/';
export const MM_SIGNAL_IFACE = 'org.freedesktop.ModemManager1.Modem.Signal';
/** How often ModemManager refreshes the signal once set up (seconds). */
export const SIGNAL_RATE_SECONDS = 30;
/** A D-Bus call that has not answered by then is a missing modem: null, and the report goes on. */
export const MODEM_CALL_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from ModemManager within ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GetManagedObjects' answer: path → interface → property → value (dbus-next Variants or plain values). */
export type ManagedObjects = Record<string, Record<string, Record<string, unknown>>>;

/** The few D-Bus calls the signal source makes. */
export interface ModemBus {
  managedObjects(): Promise<ManagedObjects>;
  setupSignal(modemPath: string, rateSeconds: number): Promise<void>;
  close(): Promise<void>;
}

export interface ModemSignalSource {
  readonly kind: string;
  /** The LTE RSSI in dBm (whole), or null when there is no modem, no LTE, or the modem does not say. */
  lteRssi(): Promise<number | null>;
  close(): Promise<void>;
}

const unwrap = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && 'signature' in value && 'value' in value ? (value as { value: unknown }).value : value;

/** The first modem's LTE RSSI in a GetManagedObjects answer; null when absent or not a plausible dBm value. */
export function lteRssiFrom(objects: ManagedObjects): number | null {
  for (const path of Object.keys(objects).filter((p) => p.startsWith(MM_MODEM_PREFIX)).sort()) {
    const signal = objects[path]?.[MM_SIGNAL_IFACE];
    if (!signal) continue;
    const lte = unwrap(signal.Lte);
    if (!lte || typeof lte !== 'object') continue;
    const rssi = unwrap((lte as Record<string, unknown>).rssi);
    if (typeof rssi === 'number' && Number.isFinite(rssi) && rssi >= -150 && rssi <= 0) return Math.round(rssi);
  }
  return null;
}

/** Modems whose Signal interface is not polling yet (Rate 0): they need Setup before Lte fills. */
export function modemsToSetUp(objects: ManagedObjects): string[] {
  return Object.keys(objects).filter((path) => {
    const signal = objects[path]?.[MM_SIGNAL_IFACE];
    return path.startsWith(MM_MODEM_PREFIX) && signal !== undefined && Number(unwrap(signal.Rate) ?? 0) === 0;
  });
}

/** ModemManager's signal: asks for polling once per modem, then reads `Lte.rssi`. Any D-Bus failure is null (no modem, no ModemManager). */
export class ModemManagerSignal implements ModemSignalSource {
  readonly kind: string;
  private readonly setUp = new Set<string>();
  lastError: string | null = null;

  constructor(
    private readonly bus: ModemBus,
    kind = 'modemmanager',
  ) {
    this.kind = kind;
  }

  async lteRssi(): Promise<number | null> {
    try {
      const objects = await withTimeout(this.bus.managedObjects(), MODEM_CALL_TIMEOUT_MS);
      for (const path of modemsToSetUp(objects)) {
        if (this.setUp.has(path)) continue;
        this.setUp.add(path);
        await withTimeout(this.bus.setupSignal(path, SIGNAL_RATE_SECONDS), MODEM_CALL_TIMEOUT_MS).catch((e: Error) => {
          this.lastError = `Signal.Setup: ${e.message}`;
        });
      }
      return lteRssiFrom(objects);
    } catch (e) {
      this.lastError = (e as Error).message;
      return null;
    }
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

/** A recorded sequence of ModemManager answers (a JSON file: `{ "answers": [objects | {"error": "..."}] }`), replayed in turn; the last one repeats. */
export class ReplayModemBus implements ModemBus {
  private index = 0;
  readonly setups: { path: string; rate: number }[] = [];

  constructor(private readonly answers: (ManagedObjects | { error: string })[]) {}

  static fromFile(file: string): ReplayModemBus {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { answers?: unknown };
    if (!Array.isArray(parsed.answers)) throw new Error(`${file}: expected { "answers": [...] }`);
    return new ReplayModemBus(parsed.answers as (ManagedObjects | { error: string })[]);
  }

  async managedObjects(): Promise<ManagedObjects> {
    const answer = this.answers[Math.min(this.index, this.answers.length - 1)] ?? {};
    this.index += 1;
    if ('error' in answer && typeof answer.error === 'string') throw new Error(answer.error);
    return answer as ManagedObjects;
  }

  async setupSignal(path: string, rate: number): Promise<void> {
    this.setups.push({ path, rate });
  }

  async close(): Promise<void> {}
}

interface DbusProxy {
  getInterface(name: string): Record<string, (...args: unknown[]) => Promise<unknown>>;
}
interface DbusMessageBus {
  getProxyObject(service: string, path: string): Promise<DbusProxy>;
  disconnect(): void;
}

/** The system bus through dbus-next (the copy node-ble uses), opened on first use. */
export class SystemModemBus implements ModemBus {
  private bus: DbusMessageBus | null = null;

  private open(): DbusMessageBus {
    if (!this.bus) {
      const require = createRequire(import.meta.url);
      const nodeBle = require.resolve('node-ble');
      const dbus = createRequire(nodeBle)('dbus-next') as { systemBus(): DbusMessageBus };
      this.bus = dbus.systemBus();
      (this.bus as unknown as { on?: (event: string, listener: () => void) => void }).on?.('error', () => {
        this.bus = null;
      });
    }
    return this.bus;
  }

  async managedObjects(): Promise<ManagedObjects> {
    const proxy = await this.open().getProxyObject(MM_SERVICE, MM_PATH);
    return (await proxy.getInterface('org.freedesktop.DBus.ObjectManager').GetManagedObjects()) as ManagedObjects;
  }

  async setupSignal(modemPath: string, rateSeconds: number): Promise<void> {
    const proxy = await this.open().getProxyObject(MM_SERVICE, modemPath);
    await proxy.getInterface(MM_SIGNAL_IFACE).Setup(rateSeconds);
  }

  async close(): Promise<void> {
    this.bus?.disconnect();
    this.bus = null;
  }
}

/** No modem configured: the signal is always unknown. */
export const NO_MODEM: ModemSignalSource = { kind: 'none', lteRssi: async () => null, close: async () => undefined };

/** `modemmanager`, `none` or `replay:FILE`. */
export function createModemSource(spec: string): ModemSignalSource {
  if (spec === 'none') return NO_MODEM;
  if (spec.startsWith('replay:')) return new ModemManagerSignal(ReplayModemBus.fromFile(spec.slice('replay:'.length)), 'replay');
  return new ModemManagerSignal(new SystemModemBus());
}
