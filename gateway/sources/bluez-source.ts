// The radio: BlueZ over D-Bus through node-ble. Kept thin (what can be pure is in
// bluez-signals.ts). It cannot run here (no radio, no BlueZ); what it does:
//  - opens the system bus with node-ble, takes the adapter (config `adapter`, else the first),
//    powers it on if needed;
//  - SetDiscoveryFilter {Transport: le, DuplicateData: true} then StartDiscovery, so BlueZ
//    reports every advertisement, not only changed ones (node-ble 1.13's startDiscovery sets no
//    DuplicateData, so the adapter methods are called directly);
//  - one bus-wide match for PropertiesChanged on org.bluez.Device1 and for the ObjectManager
//    signals, instead of one proxy per device;
//  - survives the adapter or bluetoothd going away: any failure, the adapter's removal, bluetoothd
//    restarting, discovery found stopped, or total silence for bluezStallSeconds tears the session
//    down and starts over after a backoff (full jitter, 1 s .. 60 s), forever, until stop().
import { createRequire } from 'node:module';
import { fullJitterDelay, sleep } from '../backoff';
import type { Logger } from '../log';
import { ADAPTER_IFACE, BluezDeviceTracker, type PropertyMap } from './bluez-signals';
import type { AdvertisementSource, SourceHandlers } from './types';

const require = createRequire(import.meta.url);

interface DbusMessage {
  type: number;
  path: string;
  interface: string;
  member: string;
  body: unknown[];
}

interface DbusInterface {
  [method: string]: (...args: unknown[]) => Promise<unknown>;
}

interface DbusBus {
  on(event: 'message', listener: (msg: DbusMessage) => void): void;
  on(event: 'error', listener: (err: unknown) => void): void;
  getProxyObject(name: string, path: string): Promise<{ getInterface(name: string): DbusInterface }>;
}

interface NodeBleAdapter {
  adapter: string;
  isPowered(): Promise<boolean>;
  isDiscovering(): Promise<boolean>;
  helper: {
    callMethod(name: string, ...args: unknown[]): Promise<unknown>;
    set(name: string, value: unknown): Promise<void>;
  };
}

interface NodeBleSession {
  bluetooth: {
    dbus: DbusBus;
    adapters(): Promise<string[]>;
    getAdapter(name: string): Promise<NodeBleAdapter>;
  };
  destroy(): void;
}

type VariantCtor = new (signature: string, value: unknown) => unknown;

const SIGNAL = 4;
const CALL_TIMEOUT_MS = 10_000;
const WATCHDOG_MS = 15_000;

export interface BluezOptions {
  adapter?: string;
  stallMs: number;
}

export class BluezSource implements AdvertisementSource {
  readonly kind = 'bluez';
  readonly live = true;
  private stopController = new AbortController();
  private loop: Promise<void> | null = null;
  private state: Record<string, unknown> = { state: 'starting' };

  constructor(
    private readonly options: BluezOptions,
    private readonly handlers: SourceHandlers,
    private readonly logger: Logger,
  ) {}

  now(): number {
    return Date.now();
  }

  /** Returns at once: the session is opened (and reopened) in the background. */
  async start(): Promise<void> {
    this.stopController = new AbortController();
    this.loop = this.supervise();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    await this.loop;
    this.loop = null;
  }

  status(): Record<string, unknown> {
    return { ...this.state };
  }

  private async supervise(): Promise<void> {
    const signal = this.stopController.signal;
    let attempt = 0;
    while (!signal.aborted) {
      let session: NodeBleSession | null = null;
      let adapter: NodeBleAdapter | null = null;
      let onAbort: () => void = () => undefined;
      try {
        const nodeBle = require('node-ble') as { createBluetooth(): NodeBleSession };
        session = nodeBle.createBluetooth();
        const bus = session.bluetooth.dbus;
        // A dead bus (no socket, bluetoothd's bus gone) shows up as an 'error' event: it ends
        // whatever this session is waiting for, and stop() ends it too.
        const failure = new Promise<never>((_, reject) => {
          bus.on('error', (err) => reject(new Error(`D-Bus: ${(err as Error)?.message ?? String(err)}`)));
          onAbort = () => reject(new Error('stopped'));
          signal.addEventListener('abort', onAbort, { once: true });
        });
        failure.catch(() => undefined);
        adapter = await Promise.race([this.openAdapter(session), failure]);
        const reason = await Promise.race([this.listen(bus, adapter, () => (attempt = 0)), failure]);
        if (signal.aborted) break;
        this.logger.warn({ reason }, 'BLE scanning interrupted; starting over');
        this.state = { ...this.state, state: 'restarting', lastError: reason, lastErrorAt: new Date().toISOString() };
      } catch (e) {
        if (signal.aborted) break;
        const message = (e as Error).message ?? String(e);
        const level = attempt >= 3 ? 'error' : 'warn';
        this.logger[level]({ err: message, attempt }, 'BLE adapter not available; retrying');
        this.state = { ...this.state, state: 'retrying', lastError: message, lastErrorAt: new Date().toISOString() };
      } finally {
        signal.removeEventListener('abort', onAbort);
        if (adapter) await withTimeout(adapter.helper.callMethod('StopDiscovery'), 2000).catch(() => undefined);
        try {
          session?.destroy();
        } catch {
          // already closed
        }
      }
      if (signal.aborted) break;
      const delay = Math.max(1000, fullJitterDelay(attempt, { baseMs: 1000, maxMs: 60_000 }));
      attempt += 1;
      await sleep(delay, signal);
    }
    this.state = { ...this.state, state: 'stopped' };
  }

  private async openAdapter(session: NodeBleSession): Promise<NodeBleAdapter> {
    const names = await withTimeout(session.bluetooth.adapters(), CALL_TIMEOUT_MS);
    const name = this.options.adapter ?? names[0];
    if (!name || !names.includes(name)) {
      throw new Error(this.options.adapter ? `adapter ${this.options.adapter} not found (have: ${names.join(', ') || 'none'})` : 'no Bluetooth adapter found');
    }
    const adapter = await withTimeout(session.bluetooth.getAdapter(name), CALL_TIMEOUT_MS);
    const Variant = variantClass();
    if (!(await withTimeout(adapter.isPowered(), CALL_TIMEOUT_MS))) {
      this.logger.warn({ adapter: name }, 'adapter is powered off; powering it on');
      await withTimeout(adapter.helper.set('Powered', new Variant('b', true)), CALL_TIMEOUT_MS);
    }
    await withTimeout(
      adapter.helper.callMethod('SetDiscoveryFilter', {
        Transport: new Variant('s', 'le'),
        DuplicateData: new Variant('b', true),
      }),
      CALL_TIMEOUT_MS,
    );
    return adapter;
  }

  /** Scans until something goes wrong (or stop); returns why. */
  private async listen(bus: DbusBus, adapter: NodeBleAdapter, onScanning: () => void): Promise<string> {
    const adapterPath = `/org/bluez/${adapter.adapter}`;
    const tracker = new BluezDeviceTracker(adapterPath);
    let lastHeard = Date.now();
    let interrupt: (reason: string) => void = () => undefined;
    const interrupted = new Promise<string>((resolve) => {
      interrupt = resolve;
    });

    bus.on('message', (msg) => {
      if (msg.type !== SIGNAL) return;
      try {
        if (msg.interface === 'org.freedesktop.DBus.Properties' && msg.member === 'PropertiesChanged') {
          const [iface, changed] = msg.body as [string, PropertyMap];
          this.emit(tracker.propertiesChanged(msg.path, iface, changed), () => (lastHeard = Date.now()));
        } else if (msg.interface === 'org.freedesktop.DBus.ObjectManager' && msg.member === 'InterfacesAdded') {
          const [path, ifaces] = msg.body as [string, Record<string, PropertyMap>];
          this.emit(tracker.interfacesAdded(path, ifaces), () => (lastHeard = Date.now()));
        } else if (msg.interface === 'org.freedesktop.DBus.ObjectManager' && msg.member === 'InterfacesRemoved') {
          const [path, ifaces] = msg.body as [string, string[]];
          if (path === adapterPath && ifaces.includes(ADAPTER_IFACE)) interrupt(`adapter ${adapter.adapter} went away`);
          else tracker.interfacesRemoved(path, ifaces);
        } else if (msg.interface === 'org.freedesktop.DBus' && msg.member === 'NameOwnerChanged' && msg.body[0] === 'org.bluez') {
          interrupt('bluetoothd restarted');
        }
      } catch (e) {
        this.logger.warn({ err: e, member: msg.member }, 'ignoring a D-Bus signal that could not be read');
      }
    });

    const dbus = (await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
    for (const rule of [
      "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.bluez.Device1'",
      "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'",
      "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
    ]) {
      await withTimeout(dbus.AddMatch(rule), CALL_TIMEOUT_MS);
    }
    const manager = (await bus.getProxyObject('org.bluez', '/')).getInterface('org.freedesktop.DBus.ObjectManager');
    tracker.seed((await withTimeout(manager.GetManagedObjects(), CALL_TIMEOUT_MS)) as Record<string, Record<string, PropertyMap>>);

    await withTimeout(adapter.helper.callMethod('StartDiscovery'), CALL_TIMEOUT_MS);
    onScanning();
    this.state = { ...this.state, state: 'scanning', adapter: adapter.adapter, since: new Date().toISOString() };
    this.logger.info({ adapter: adapter.adapter }, 'BLE discovery started (duplicate data on)');

    const watchdog = setInterval(() => {
      withTimeout(adapter.isDiscovering(), CALL_TIMEOUT_MS).then(
        (discovering) => {
          if (!discovering) interrupt('discovery was stopped (adapter reset or powered off?)');
          else if (Date.now() - lastHeard > this.options.stallMs) interrupt(`nothing heard for ${Math.round(this.options.stallMs / 1000)} s`);
        },
        (e) => interrupt(`adapter not answering: ${(e as Error).message}`),
      );
    }, WATCHDOG_MS);
    try {
      return await interrupted;
    } finally {
      clearInterval(watchdog);
      this.state = { ...this.state, devicesKnown: tracker.size };
    }
  }

  private emit(adv: ReturnType<BluezDeviceTracker['propertiesChanged']>, heard: () => void): void {
    if (!adv) return;
    heard();
    this.handlers.onAdvertisement({ ts: Date.now(), adv });
  }
}

/** dbus-next's Variant, taken from the copy node-ble itself uses. */
function variantClass(): VariantCtor {
  const fromNodeBle = createRequire(require.resolve('node-ble'));
  return (fromNodeBle('dbus-next') as { Variant: VariantCtor }).Variant;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`D-Bus call timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
