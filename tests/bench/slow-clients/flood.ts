// The slow side of tests/bench/slow-clients.ts, in a process of its own so that its sockets do not
// slow the measuring client's event loop: SLOW connections from 127.0.0.2, each sending a POST head
// and a few bytes of a body that never ends; one the server closes is opened again a second later.
// Prints {"open":n,"refused":n} every 200 ms until SIGTERM.
//   tsx tests/bench/slow-clients/flood.ts <base> <path> <connections>
import { connect, type Socket } from 'node:net';

const [base, path, count] = process.argv.slice(2);
const { hostname, port } = new URL(base);
const sockets = new Set<Socket>();
let stopped = false;
let refused = 0;

const open = () => {
  if (stopped) return;
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.2' });
  sockets.add(socket);
  socket.on('connect', () => socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ngrant_type=`));
  socket.once('data', () => (refused += 1));
  socket.on('error', () => undefined);
  socket.once('close', () => {
    sockets.delete(socket);
    if (!stopped) setTimeout(open, 1000);
  });
};
for (let i = 0; i < Number(count); i++) open();

const report = () => {
  const openNow = [...sockets].filter((socket) => !socket.connecting && !socket.destroyed).length;
  process.stdout.write(`${JSON.stringify({ open: openNow, refused })}\n`);
};
const timer = setInterval(report, 200);
process.on('SIGTERM', () => {
  stopped = true;
  clearInterval(timer);
  report();
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
