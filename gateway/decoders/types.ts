// The contract between the BLE source (which hands over advertisements), the pure decoders and the
// rest of the gateway. Decoders never touch the radio, the clock or a logger.

/** One BLE advertisement as BlueZ hands it over. Keys are the 16-bit company id / service UUID as 4 lowercase hex digits; values are the bytes without the company id / without the UUID. */
export interface Advertisement {
  address: string;            // "AA:BB:CC:DD:EE:FF" upper case
  rssi?: number;
  name?: string;              // local name
  manufacturerData: Record<string, Uint8Array>;
  serviceData: Record<string, Uint8Array>;
  /**
   * The manufacturer-data key whose value arrived most recently, when the source can tell: BlueZ
   * keeps entries of earlier advertisements beside the current one (Inkbird puts its reading in
   * the key, so each reading is a new entry). Set by the BlueZ source from the changes it sees.
   */
  newestManufacturerKey?: string;
}

export interface DecodeOptions {
  key?: Uint8Array;           // per-sensor bind key (BTHome 16 bytes, pvvx 16 bytes, MiBeacon 16 bytes)
  /**
   * The caller vouches that this address is a registered temperature sensor (the store's sensor
   * list), as pySwitchbot's callers pass the model: a SwitchBot advert heard by a passive scan
   * (manufacturer data 0x0969 only, no scan response) is then read as a meter, battery unknown.
   */
  registeredSensor?: boolean;
}

/**
 * What one advertisement says. A result without `temperature` and without `error` is a valid frame
 * that carries no temperature (a MiBeacon battery-only frame, a BTHome button): callers skip it.
 */
export interface DecodedAdvertisement {
  format: string;             // e.g. 'bthome-v2', 'ruuvi-5', 'ruuvi-3', 'pvvx', 'pvvx-encrypted', 'atc1441', 'mibeacon', 'govee-h5075', 'govee-h5072', 'govee-h5074', 'inkbird-ibs-th', 'switchbot-meter'
  temperature?: number;       // °C
  humidity?: number;          // %
  battery?: number;           // %
  batteryMv?: number;         // mV
  error?: boolean;            // the sensor reports a sensor error / not-available temperature where the format has such a notion
  counter?: number;           // packet/frame counter where the format has one (for dedup)
  counterBits?: number;       // width of `counter` (8, 16 or 32), so that the guard knows where it wraps
  encrypted?: boolean;        // came in encrypted
}
