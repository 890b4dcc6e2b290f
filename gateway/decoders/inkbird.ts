// Inkbird IBS-TH ("sps") and IBS-TH2 / IBS-P01B ("tps") (as read by Bluetooth-Devices/inkbird-ble
// and ble_monitor). They put the temperature where the company id belongs, so the manufacturer-data
// key changes with the reading: we recognise them by local name and a 7-byte value:
//   key    temperature, int16 /100 (the company id read little-endian)
//   0-1    humidity, uint16 LE /100 ("tps" sends 0 or 0xFFFF: no humidity sensor)
//   2      0 internal sensor, 1 or 3 external probe
//   3-4    CRC-16/MODBUS of the temperature, humidity and probe bytes
//   5      battery %
import { percent, u16le } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';

const MODELS: Record<string, string> = { sps: 'inkbird-ibs-th', tps: 'inkbird-ibs-th2' };

export const readInkbird: FormatReader = (adv) => {
  const format = MODELS[adv.name?.toLowerCase() ?? ''];
  if (!format) return null;
  // BlueZ can keep entries of earlier readings beside the current one: only a frame whose checksum
  // holds is a reading, and of several such frames the one that arrived last is current (the
  // source says which; inkbird-ble does the same with the changed entry). Without that we cannot
  // tell which is current and wait for the next advertisement.
  const frames = Object.entries(adv.manufacturerData)
    .filter(([key, value]) => /^[0-9a-f]{4}$/.test(key) && value.length === 7)
    .map(([key, value]) => ({ key, frame: Uint8Array.from([...keyBytes(key), ...value]) }))
    .filter(({ frame }) => crc16Modbus(frame.subarray(0, 5)) === u16le(frame, 5));
  if (frames.length === 0) throw new DecodeError(format, 'malformed', 'no manufacturer data with a valid Inkbird checksum');
  const newest = frames.find(({ key }) => key === adv.newestManufacturerKey);
  if (frames.length > 1 && !newest) {
    throw new DecodeError(format, 'malformed', `${frames.length} valid Inkbird frames at once and none known to be the newest (waiting for one that changes)`);
  }
  const { frame } = newest ?? frames[0];
  const probe = frame[4];
  if (probe !== 0 && probe !== 1 && probe !== 3) throw new DecodeError(format, 'unsupported', `unknown probe type ${probe}`);
  const humidity = u16le(frame, 2);
  const hasHumidity = format === 'inkbird-ibs-th' || (humidity !== 0 && humidity !== 0xffff);
  return {
    format,
    temperature: ((u16le(frame, 0) << 16) >> 16) / 100,
    humidity: hasHumidity ? humidity / 100 : undefined,
    battery: percent(frame[7]),
  };
};

/** The key "07fc" is company id 0x07FC, sent on air as FC 07. */
const keyBytes = (key: string) => {
  const id = parseInt(key, 16);
  return [id & 0xff, id >> 8];
};

function crc16Modbus(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

export const decodeInkbird = orNull(readInkbird);
