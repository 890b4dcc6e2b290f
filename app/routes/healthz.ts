import { json } from '@remix-run/node';

// GET /healthz: this web process is alive and answering (no database call: a load balancer or
// systemd restarts a process that fails this, which a database outage would not cure).
// docs/operations.md.
export function loader() {
  return json({ status: 'ok', pid: process.pid, uptime_s: Math.round(process.uptime()) }, { headers: { 'Cache-Control': 'no-store' } });
}
