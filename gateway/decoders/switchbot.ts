// SwitchBot Meter family (as read by sblibs/pySwitchbot, adv_parsers/meter.py): service data 0xFD3D
// (0x0D00 on old firmware) says which device this is and its battery; the temperature is in the
// service data (bytes 3-5) and, on the Outdoor Meter, Meter Pro and newer firmware, in manufacturer
// data 0x0969 (bytes 8-10, after the MAC), which we prefer when both are there. Those 3 bytes:
//   byte 0  bits 0-3 tenths of a degree
//   byte 1  bit 7 set = positive, bits 0-6 whole degrees
//   byte 2  bit 7 °F display flag (values stay °C), bits 0-6 humidity %
import { percent } from './bytes';
import { DecodeError, type FormatReader, orNull } from './decode-error';

const FORMAT = 'switchbot-meter';
// Device type letters: Meter, Meter Plus, Outdoor Meter, Meter Pro, Meter Pro CO2.
const METERS = new Set(['T', 'i', 'w', '4', '5']);

export const readSwitchbot: FormatReader = (adv, options = {}) => {
  const service = adv.serviceData['fd3d'] ?? adv.serviceData['0d00'];
  const maker = adv.manufacturerData['0969'];
  if (!service) {
    if (!maker) return null;
    // Bots, plugs and curtains share 0x0969: without the service data only the caller can say it is a meter.
    if (!options.registeredSensor) throw new DecodeError(FORMAT, 'unsupported', 'manufacturer data without service data: device type unknown');
    return readPassive(maker);
  }
  if (service.length < 1) throw new DecodeError(FORMAT, 'malformed', 'empty service data');
  const type = String.fromCharCode(service[0] & 0x7f);
  if (!METERS.has(type)) throw new DecodeError('switchbot', 'unsupported', `device type '${type}' is not a meter`);
  if (service[0] & 0x80) throw new DecodeError(FORMAT, 'unsupported', 'encrypted SwitchBot frames are not read');
  const battery = service.length >= 3 ? percent(service[2] & 0x7f) : undefined;
  const reading = maker && maker.length >= 11 ? maker.subarray(8, 11) : service.length >= 6 ? service.subarray(3, 6) : null;
  if (!reading) throw new DecodeError(FORMAT, 'malformed', 'no temperature bytes in service or manufacturer data');
  return { format: FORMAT, ...readTemperature(reading, battery !== undefined && battery > 0), battery };
};

/**
 * A passive scan hears only the manufacturer data: the MAC (6 bytes), a sequence byte, a status
 * byte, then the 3 temperature bytes at 8-10 (pySwitchbot process_wosensorth with data=None:
 * battery None). Meter 11 bytes, Outdoor Meter and Meter Pro 12-13; other lengths are other devices.
 */
function readPassive(maker: Uint8Array) {
  if (maker.length < 11 || maker.length > 13) {
    throw new DecodeError(FORMAT, 'unsupported', `manufacturer data of ${maker.length} bytes is not a meter's (11-13)`);
  }
  const values = readTemperature(maker.subarray(8, 11), false);
  if (values.humidity > 100) throw new DecodeError(FORMAT, 'malformed', `humidity ${values.humidity} % is not 0-100`);
  return { format: FORMAT, ...values };
}

function readTemperature(reading: Uint8Array, hasBattery: boolean): { temperature: number; humidity: number } {
  const tenths = reading[0] & 0x0f;
  if (tenths > 9) throw new DecodeError(FORMAT, 'malformed', `tenths digit ${tenths} is not 0-9`);
  const whole = reading[1] & 0x7f;
  const humidity = reading[2] & 0x7f;
  // An all-zero frame is what a meter sends before its first measurement.
  if (whole === 0 && tenths === 0 && humidity === 0 && !hasBattery) {
    throw new DecodeError(FORMAT, 'malformed', 'all-zero frame (no measurement yet)');
  }
  const sign = reading[1] & 0x80 ? 1 : -1;
  const temperature = (sign * (whole * 10 + tenths)) / 10 || 0; // `|| 0`: no −0
  return { temperature, humidity };
}

export const decodeSwitchbot = orNull(readSwitchbot);
