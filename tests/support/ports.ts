import net from 'node:net';

/**
 * A TCP port free on this machine now, as the system hands it out (port 0). Tests and benches run
 * beside each other (and beside other sessions' tests), so a port drawn at random may be taken.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
