import { Readable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { withoutNulBytes } from '~/http/html-stream.server';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('withoutNulBytes (issue 11)', () => {
  it('drops the NULs React 18.3 pads a 2 KiB buffer with where a multi-byte character did not fit', async () => {
    // Japanese text long enough to cross several 2 KiB buffers, one string per element.
    const items = Array.from({ length: 400 }, (_, i) => createElement('li', { key: i, 'aria-label': `ゲートウェイ${i}` }, `店舗${i}`));
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(createElement('ul', null, items), {
        onAllReady() {
          const out = withoutNulBytes();
          collect(out).then(resolve, reject);
          pipe(out);
        },
        onShellError: reject,
      });
    });
    expect(raw.indexOf(0)).toBe(-1);
    const text = raw.toString('utf8');
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain('aria-label="ゲートウェイ399"');
  });

  it('passes chunks without NULs as they are', async () => {
    const out = Readable.from([Buffer.from('<p>温度</p>'), Buffer.from([0x3c, 0x00, 0x62, 0x3e])]).pipe(withoutNulBytes());
    expect((await collect(out)).toString('utf8')).toBe('<p>温度</p><b>');
  });
});
