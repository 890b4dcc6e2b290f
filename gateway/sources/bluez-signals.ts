// BlueZ D-Bus signals -> advertisements. Pure (no bus): the bluez source feeds it the bodies of
// PropertiesChanged / InterfacesAdded / InterfacesRemoved as dbus-next unmarshals them, and the
// tests feed it the same shapes.
//
// With SetDiscoveryFilter {DuplicateData: true}, BlueZ emits PropertiesChanged on
// org.bluez.Device1 for every advertisement it receives; ManufacturerData (a{qv}) and
// ServiceData (a{sv}, 128-bit UUID strings) carry the payloads, RSSI and Name come along when
// they change. One signal carrying ManufacturerData and/or ServiceData is one advertisement;
// data from earlier signals is not merged in (it would be counted twice).
import type { Advertisement } from '../decoders/types';

export const DEVICE_IFACE = 'org.bluez.Device1';
export const ADAPTER_IFACE = 'org.bluez.Adapter1';

/** A D-Bus variant as dbus-next hands it over. */
export interface VariantLike {
  signature?: string;
  value: unknown;
}

export type PropertyMap = Record<string, VariantLike | undefined>;

interface KnownDevice {
  address: string;
  name?: string;
  rssi?: number;
  /** The manufacturer data last seen (hex by key) and the key that changed last (see Advertisement). */
  manufacturer?: Map<string, string>;
  newestManufacturerKey?: string;
}

const BASE_UUID_SUFFIX = '-0000-1000-8000-00805f9b34fb';

/** `0000fcd2-0000-1000-8000-00805f9b34fb` -> `fcd2`; other UUIDs stay whole (lowercase). */
export function shortUuid(uuid: string): string {
  const lower = uuid.toLowerCase();
  if (lower.length === 36 && lower.startsWith('0000') && lower.endsWith(BASE_UUID_SUFFIX)) return lower.slice(4, 8);
  return lower;
}

/** `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF` -> `AA:BB:CC:DD:EE:FF`, or null for other paths. */
export function addressFromPath(path: string): string | null {
  const m = /\/dev_([0-9A-Fa-f]{2}(?:_[0-9A-Fa-f]{2}){5})$/.exec(path);
  return m ? m[1].replace(/_/g, ':').toUpperCase() : null;
}

function unwrap(v: unknown): unknown {
  return v !== null && typeof v === 'object' && 'value' in (v as object) && 'signature' in (v as object)
    ? (v as VariantLike).value
    : v;
}

function bytes(v: unknown): Uint8Array | null {
  const raw = unwrap(v);
  if (raw instanceof Uint8Array) return Uint8Array.from(raw);
  if (Array.isArray(raw) && raw.every((b) => typeof b === 'number')) return Uint8Array.from(raw as number[]);
  return null;
}

function dataMap(v: VariantLike | undefined, key: (k: string) => string): Record<string, Uint8Array> | null {
  if (!v) return null;
  const dict = unwrap(v);
  if (!dict || typeof dict !== 'object') return null;
  const out: Record<string, Uint8Array> = {};
  for (const [k, value] of Object.entries(dict as Record<string, unknown>)) {
    const b = bytes(value);
    if (b) out[key(k)] = b;
  }
  return out;
}

const companyKey = (k: string) => Number(k).toString(16).padStart(4, '0');

/**
 * Remembers what each device object said (address, name, RSSI) and turns property changes into
 * advertisements. Bounded: the oldest entries go first when BlueZ keeps many transient devices.
 */
export class BluezDeviceTracker {
  private readonly devices = new Map<string, KnownDevice>();

  constructor(
    private readonly adapterPath: string,
    private readonly maxDevices = 5000,
  ) {}

  get size(): number {
    return this.devices.size;
  }

  /** Seeds names and RSSIs from GetManagedObjects (no advertisements: data there may be old). */
  seed(objects: Record<string, Record<string, PropertyMap> | undefined>): void {
    for (const [path, ifaces] of Object.entries(objects)) {
      const props = ifaces?.[DEVICE_IFACE];
      if (props) this.update(path, props);
    }
  }

  /** PropertiesChanged on a device object. */
  propertiesChanged(path: string, iface: string, changed: PropertyMap): Advertisement | null {
    if (iface !== DEVICE_IFACE) return null;
    return this.update(path, changed);
  }

  /** InterfacesAdded: a new device object (its first advertisement is in the properties). */
  interfacesAdded(path: string, ifaces: Record<string, PropertyMap>): Advertisement | null {
    const props = ifaces[DEVICE_IFACE];
    return props ? this.update(path, props) : null;
  }

  interfacesRemoved(path: string, ifaces: string[]): void {
    if (ifaces.includes(DEVICE_IFACE)) this.devices.delete(path);
  }

  private update(path: string, props: PropertyMap): Advertisement | null {
    if (!path.startsWith(this.adapterPath + '/')) return null;
    let device = this.devices.get(path);
    if (!device) {
      const address = (typeof unwrap(props.Address) === 'string' ? String(unwrap(props.Address)) : addressFromPath(path))?.toUpperCase();
      if (!address) return null;
      device = { address };
      if (this.devices.size >= this.maxDevices) {
        const oldest = this.devices.keys().next().value;
        if (oldest !== undefined) this.devices.delete(oldest);
      }
      this.devices.set(path, device);
    }
    const name = unwrap(props.Name);
    if (typeof name === 'string') device.name = name;
    const rssi = unwrap(props.RSSI);
    if (typeof rssi === 'number') device.rssi = rssi;

    const manufacturerData = dataMap(props.ManufacturerData, companyKey);
    const serviceData = dataMap(props.ServiceData, shortUuid);
    if (!manufacturerData && !serviceData) return null;
    if (manufacturerData) trackNewest(device, manufacturerData);
    const adv: Advertisement = {
      address: device.address,
      manufacturerData: manufacturerData ?? {},
      serviceData: serviceData ?? {},
    };
    if (manufacturerData && device.newestManufacturerKey !== undefined) adv.newestManufacturerKey = device.newestManufacturerKey;
    if (device.rssi !== undefined) adv.rssi = device.rssi;
    if (device.name !== undefined) adv.name = device.name;
    return adv;
  }
}

/**
 * BlueZ hands over the whole ManufacturerData dict it keeps for a device, older entries included
 * (dbus-next gives a{qv} as an object with numeric keys, so the dict's own order is lost): the
 * entry that is new or changed since the device's previous dict is the newest. One changed entry
 * names it; several at once (first sight with stale entries, BlueZ replacing all) leave it unknown
 * until one changes alone; none changed (a repeat) keeps the last one known.
 */
function trackNewest(device: KnownDevice, data: Record<string, Uint8Array>): void {
  const next = new Map(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('hex')]));
  const changed = [...next].filter(([key, value]) => device.manufacturer?.get(key) !== value).map(([key]) => key);
  if (changed.length === 1) device.newestManufacturerKey = changed[0];
  else if (changed.length > 1) device.newestManufacturerKey = next.size === 1 ? changed[0] : undefined;
  if (device.newestManufacturerKey !== undefined && !next.has(device.newestManufacturerKey)) device.newestManufacturerKey = undefined;
  device.manufacturer = next;
}
