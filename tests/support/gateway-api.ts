import { toCompactDateTime } from '../../app/domain/japan-time';

// The gateway side of the protocol, for tests that drive a real console over HTTP.

/** Pairs as a store's gateway does (createStore names the gateway GW-<store>); the gateway token. */
export async function pairOverApi(base: string, storeId: string, pinCode: string): Promise<string> {
  const response = await fetch(`${base}/on-reco/v1/gateway/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ gateway_info: `GW-${storeId}`, pin_code: pinCode }),
  });
  if (!response.ok) throw new Error(`pairing failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { gateway_token: string }).gateway_token;
}

/** The start of the minute `minutesAgo` minutes before now, as a gateway labels a reading. */
export const minuteAgo = (minutesAgo: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutesAgo * 60_000);

/** Posts one reading of one sensor; the API's answer. */
export async function postReading(base: string, token: string, serialNo: string, at: Date, temperature: number): Promise<{ accepted: number; duplicates: number }> {
  const response = await fetch(`${base}/on-reco/v1/gateway/readings`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ readings: [{ serial_no: serialNo, measured_at: toCompactDateTime(at), temperature, error: false, battery: 90, receive_sensitivity: -60 }] }),
  });
  if (!response.ok) throw new Error(`readings failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { accepted: number; duplicates: number };
}
