// Encoders for real advertisement formats, used by the simulate source and the capture fixture
// generator, so that synthetic data goes through the real decoders.
//   BTHome v2: https://bthome.io/format, https://bthome.io/encryption (service data 0xFCD2)
//   Ruuvi RAWv2 (data format 5): manufacturer data 0x0499, big-endian fields
import { createCipheriv } from 'node:crypto';

export const BTHOME_UUID = 'fcd2';
export const RUUVI_COMPANY_ID = '0499';

export interface BthomeValues {
  /** 8-bit packet id (object 0x00): a new measurement gets a new id; repeats keep it. */
  packetId?: number;
  /** Battery % (object 0x01). */
  battery?: number;
  /** °C with 0.01 resolution (object 0x02); null sends the "not available" smallest sint16. */
  temperature?: number | null;
  /** % with 0.01 resolution (object 0x03). */
  humidity?: number;
  /** mV (object 0x0C). */
  voltageMv?: number;
}

export interface BthomeEncryption {
  key: Uint8Array;
  /** The sensor's address, AA:BB:CC:DD:EE:FF (part of the nonce). */
  address: string;
  /** 32-bit counter; must grow from frame to frame. */
  counter: number;
}

/** A BTHome v2 service-data payload (without the UUID), objects in id order as the spec asks. */
export function encodeBthome(values: BthomeValues, encryption?: BthomeEncryption): Uint8Array {
  const objects: number[] = [];
  if (values.packetId !== undefined) objects.push(0x00, values.packetId & 0xff);
  if (values.battery !== undefined) objects.push(0x01, clamp(Math.round(values.battery), 0, 100));
  if (values.temperature !== undefined) {
    const raw = values.temperature === null ? -0x8000 : clamp(Math.round(values.temperature * 100), -0x7fff, 0x7fff);
    objects.push(0x02, raw & 0xff, (raw >> 8) & 0xff);
  }
  if (values.humidity !== undefined) {
    const raw = clamp(Math.round(values.humidity * 100), 0, 0xffff);
    objects.push(0x03, raw & 0xff, raw >> 8);
  }
  if (values.voltageMv !== undefined) {
    const raw = clamp(Math.round(values.voltageMv), 0, 0xffff);
    objects.push(0x0c, raw & 0xff, raw >> 8);
  }
  if (!encryption) return Uint8Array.from([0x40, ...objects]);

  const info = 0x41; // version 2, encrypted
  const counter = Buffer.alloc(4);
  counter.writeUInt32LE(encryption.counter >>> 0);
  const mac = Buffer.from(encryption.address.replace(/:/g, ''), 'hex');
  const nonce = Buffer.concat([mac, Buffer.from([0xd2, 0xfc, info]), counter]);
  const cipher = createCipheriv('aes-128-ccm', encryption.key, nonce, { authTagLength: 4 });
  const ciphertext = Buffer.concat([cipher.update(Uint8Array.from(objects)), cipher.final()]);
  return Uint8Array.from(Buffer.concat([Buffer.from([info]), ciphertext, counter, cipher.getAuthTag()]));
}

export interface RuuviValues {
  /** °C (0.005 resolution); null sends "not available" (a sensor error). */
  temperature: number | null;
  humidity: number;
  pressurePa: number;
  acceleration: [number, number, number];
  batteryMv: number;
  txPowerDbm: number;
  movementCounter: number;
  sequence: number;
  address: string;
}

/** A Ruuvi data format 5 (RAWv2) manufacturer-data payload (without the company id): 24 bytes. */
export function encodeRuuvi5(v: RuuviValues): Uint8Array {
  const b = Buffer.alloc(24);
  b[0] = 5;
  b.writeInt16BE(v.temperature === null ? -0x8000 : clamp(Math.round(v.temperature * 200), -0x7fff, 0x7fff), 1);
  b.writeUInt16BE(clamp(Math.round(v.humidity * 400), 0, 40000), 3);
  b.writeUInt16BE(clamp(Math.round(v.pressurePa - 50000), 0, 0xfffe), 5);
  v.acceleration.forEach((mg, i) => b.writeInt16BE(clamp(Math.round(mg), -0x7fff, 0x7fff), 7 + 2 * i));
  const voltage = clamp(Math.round(v.batteryMv - 1600), 0, 0x7fe);
  const tx = clamp(Math.round((v.txPowerDbm + 40) / 2), 0, 0x1e);
  b.writeUInt16BE((voltage << 5) | tx, 13);
  b[15] = v.movementCounter & 0xff;
  b.writeUInt16BE(v.sequence % 0xffff, 16);
  Buffer.from(v.address.replace(/:/g, ''), 'hex').copy(b, 18);
  return Uint8Array.from(b);
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
