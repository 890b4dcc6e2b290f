// Govee thermo-hygrometers on manufacturer data 0xEC88 (as read by Bluetooth-Devices/govee-ble):
//   6 bytes  H5072 / H5075: byte 0 unused, bytes 1-3 one big-endian number packing temperature
//            and humidity (top bit: negative), byte 4 battery % with bit 7 = sensor error
//   7 bytes  H5074: byte 0 unused, int16 LE temperature /100, uint16 LE humidity /100, battery %
// The two 6-byte models share the layout; only the local name tells them apart.
import { percent, s16le, u16le } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';

// Outside this range a packed value is garbage, which govee-ble also reports as a sensor error.
const MIN_CELSIUS = -30;
const MAX_CELSIUS = 100;

export const readGovee: FormatReader = (adv) => {
  let data = adv.manufacturerData['ec88'];
  if (!data) return null;
  // Some stacks glue an Apple iBeacon ("INTELLI_ROCKS", 25 bytes) to the end of the Govee data.
  if (data.length > 25 && Buffer.from(data).includes('INTELLI_ROCKS')) data = data.subarray(0, data.length - 25);
  if (data.length === 6) {
    const format = adv.name?.toUpperCase().includes('H5072') ? 'govee-h5072' : 'govee-h5075';
    const packed = (data[1] << 16) | (data[2] << 8) | data[3];
    const magnitude = packed & 0x7fffff;
    const sign = packed & 0x800000 ? -1 : 1;
    const temperature = (sign * Math.trunc(magnitude / 1000)) / 10 || 0; // `|| 0`: no −0
    const battery = percent(data[4] & 0x7f);
    const garbage = temperature < MIN_CELSIUS || temperature > MAX_CELSIUS;
    if (data[4] & 0x80 || garbage) return { format, battery, error: true };
    return { format, temperature, humidity: (magnitude % 1000) / 10, battery };
  }
  if (data.length === 7) {
    const [temperature, humidity] = [s16le(data, 1) / 100, u16le(data, 3) / 100];
    return { format: 'govee-h5074', temperature, humidity, battery: percent(data[5]) };
  }
  // 9 bytes is the H5051/H5071 family, longer ones are meat thermometers: not fridge sensors.
  throw new DecodeError('govee', 'unsupported', `no supported Govee layout is ${data.length} bytes long`);
};

export const decodeGovee = orNull(readGovee);
