import { describe, expect, it } from 'vitest';
import { gatewayListFlags } from '~/domain/gateway-health';

// The ゲートウェイ一覧's filter facts (docs/decisions/165), stored with each report: the same bounds
// as the buffer bar's amber and the LTE icon's bars.
const flags = (buffer_depth: number, lte_rssi: number | null, buffer_capacity = 1000) => gatewayListFlags({ buffer_depth, buffer_capacity, lte_rssi });

describe('gatewayListFlags', () => {
  it('calls a buffer over half full from one reading past 50 %', () => {
    expect(flags(500, -70).buffer_over_half).toBe(false);
    expect(flags(501, -70).buffer_over_half).toBe(true);
    expect(flags(0, -70, 0).buffer_over_half).toBe(false);
  });

  it('calls a signal weak where the icon shows one bar or none: below −85 dBm, or unknown', () => {
    expect(flags(0, -85).weak_signal).toBe(false);
    expect(flags(0, -86).weak_signal).toBe(true);
    expect(flags(0, -120).weak_signal).toBe(true);
    expect(flags(0, null).weak_signal).toBe(true);
  });
});
