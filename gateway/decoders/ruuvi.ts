// Ruuvi data formats 5 (RAWv2) and 3 (RAWv1), manufacturer data 0x0499, all fields big-endian
// (https://docs.ruuvi.com, ruuvi-sensor-protocols dataformat_05.md / dataformat_03.md).
import { s16be, u16be } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';
import type { DecodedAdvertisement } from './types';

export const readRuuvi: FormatReader = (adv) => {
  const data = adv.manufacturerData['0499'];
  if (!data) return null;
  if (data[0] === 5) return readFormat5(data);
  if (data[0] === 3) return readFormat3(data);
  // Formats 2 and 4 are Eddystone URLs, not manufacturer data; 6, 8 and E1 are for other products.
  throw new DecodeError('ruuvi', 'unsupported', `data format ${data[0] ?? '(empty)'} is not read`);
};

// RAWv2: "not available" is the smallest value for signed fields and the largest for unsigned ones.
function readFormat5(data: Uint8Array): DecodedAdvertisement {
  if (data.length !== 24) throw new DecodeError('ruuvi-5', 'malformed', `expected 24 bytes, got ${data.length}`);
  const result: DecodedAdvertisement = { format: 'ruuvi-5' };
  const temperature = s16be(data, 1);
  // The sensor is alive but could not measure: a sensor error, never a made-up 0 °C.
  if (temperature === -0x8000) result.error = true;
  else result.temperature = temperature / 200; // 0.005 °C steps
  const humidity = u16be(data, 3);
  if (humidity !== 0xffff) result.humidity = humidity / 400; // 0.0025 % steps
  const voltage = u16be(data, 13) >> 5; // 11 bits above 1600 mV, then 5 bits of TX power
  if (voltage !== 0x7ff) result.batteryMv = 1600 + voltage;
  const sequence = u16be(data, 16);
  if (sequence !== 0xffff) {
    result.counter = sequence;
    result.counterBits = 16;
  }
  return result;
}

// RAWv1 has no "not available" value (the spec suggests sending 0) and no counter.
function readFormat3(data: Uint8Array): DecodedAdvertisement {
  if (data.length !== 14) throw new DecodeError('ruuvi-3', 'malformed', `expected 14 bytes, got ${data.length}`);
  const whole = data[2] & 0x7f;
  const hundredths = data[3];
  if (hundredths > 99) throw new DecodeError('ruuvi-3', 'malformed', `temperature fraction ${hundredths} is not 0-99`);
  const sign = data[2] & 0x80 ? -1 : 1; // sign and magnitude, not two's complement
  return {
    format: 'ruuvi-3',
    temperature: (sign * (whole * 100 + hundredths)) / 100 || 0, // `|| 0`: no −0 for 0x80 0x00
    humidity: data[1] / 2,
    batteryMv: u16be(data, 12),
  };
}

export const decodeRuuvi = orNull(readRuuvi);
