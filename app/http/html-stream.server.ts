import { Transform } from 'node:stream';

/**
 * The page's HTML on its way out, without NUL bytes. React 18.3's Node renderer sends its 2 KiB
 * buffers whole: when a multi-byte character does not fit at the end of one, the bytes left free
 * go out as NULs (fixed in React 19), and the browser shows U+FFFD there, in text or inside an
 * attribute (ゲー�トウェイ: issue 11's accessibility gate caught one in a menu's name). Our HTML
 * never holds a NUL of its own, so every one is dropped.
 */
export function withoutNulBytes(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (chunk.indexOf(0) === -1) {
        done(null, chunk);
        return;
      }
      const kept = Buffer.allocUnsafe(chunk.length);
      let length = 0;
      for (const byte of chunk) if (byte !== 0) kept[length++] = byte;
      done(null, kept.subarray(0, length));
    },
  });
}
