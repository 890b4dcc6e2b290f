import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, fileNameOf } from '../../../cli/client';
import type { CliContext } from '../../../cli/context';
import { listRegions } from '../../../app/domain/api/lookups';

// The CLI's client against a real HTTP server that limits it: a 429 is waited out (Retry-After)
// and the call sent again; a server that keeps refusing ends in one error, not a loop.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering 429 (Retry-After: 1) to the first `refusals` requests, then the regions. */
async function limitingServer(refusals: number) {
  const seen: number[] = [];
  server = createServer((request, response) => {
    seen.push(Date.now());
    if (seen.length <= refusals) {
      response.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      response.end(JSON.stringify({ error: 'too_many_requests', error_description: 'slow down' }));
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify([{ region_id: 1, region_name: '関東' }]));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

function clientOf(base: string) {
  const ctx = { fetch, env: {} } as unknown as CliContext;
  return new ApiClient(ctx, { server: base, token: 'token' });
}

describe('the CLI client under a rate limit', () => {
  it('waits the Retry-After of a 429 and sends the call again', async () => {
    const { base, seen } = await limitingServer(2);
    expect(await clientOf(base).call(listRegions, undefined)).toEqual([{ region_id: 1, region_name: '関東' }]);
    expect(seen).toHaveLength(3);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(950);
  });

  it('gives up with the server\'s reason after six refusals', async () => {
    const { base, seen } = await limitingServer(100);
    await expect(clientOf(base).call(listRegions, undefined)).rejects.toThrow(/slow down \(429 too_many_requests\)/);
    expect(seen).toHaveLength(6);
  }, 20_000);
});

describe('the file name a download is saved under (issue 30 item 6)', () => {
  it.each([
    ['attachment; filename="report.pdf"', 'report.pdf'],
    ["attachment; filename*=UTF-8''%E6%9C%88%E5%A0%B1.pdf", '月報.pdf'],
    ['attachment; filename="../../.bashrc"', '.bashrc'],
    ["attachment; filename*=UTF-8''..%2F..%2Fetc%2Fcron.d%2Fx", 'x'],
    ['attachment; filename="..\\..\\evil.csv"', 'evil.csv'],
    ['attachment; filename="C:evil.csv"', 'evil.csv'],
    ['attachment; filename="/etc/passwd"', 'passwd'],
    ['attachment; filename=".."', null],
    ["attachment; filename*=UTF-8''a%0D%0Ab.csv", 'ab.csv'],
    ["attachment; filename*=UTF-8''%E0%A4%A", null],
  ])('%s → %s: only a plain name in the folder given', (header, expected) => {
    expect(fileNameOf(header)).toBe(expected);
  });
});
