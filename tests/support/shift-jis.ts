// Text as Shift_JIS (CP932) bytes, as Excel in Japan saves a CSV: Node has a Shift_JIS decoder
// (WHATWG's, which is CP932) but no encoder, so the table is read back from the decoder once.

let table: Map<string, number[]> | undefined;

function encodingTable(): Map<string, number[]> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('shift_jis', { fatal: true });
  const add = (bytes: number[]) => {
    try {
      const char = decoder.decode(new Uint8Array(bytes));
      if ([...char].length === 1 && !table!.has(char)) table!.set(char, bytes);
    } catch {
      // not a character of CP932
    }
  };
  for (let byte = 0; byte < 0x100; byte += 1) add([byte]);
  for (let lead = 0x81; lead <= 0xfc; lead += 1) {
    if (lead > 0x9f && lead < 0xe0) continue;
    for (let trail = 0x40; trail <= 0xfc; trail += 1) if (trail !== 0x7f) add([lead, trail]);
  }
  return table;
}

export function toShiftJis(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const encoded = encodingTable().get(char);
    if (!encoded) throw new Error(`${JSON.stringify(char)} has no Shift_JIS (CP932) form`);
    bytes.push(...encoded);
  }
  return new Uint8Array(bytes);
}
