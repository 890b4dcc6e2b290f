// The chain-scale rig (issue 17 part 1; docs/decisions/190-chain-rig.md). One command:
//   env -u DATABASE_URL npx tsx tests/bench/chain.ts
// A fresh database (embedded PostgreSQL, or a database on DATABASE_URL's server) with 20,000
// stores × 20 sensors generated in SQL: their states, users and groups, a month of minute
// readings for the stores the simulated users open and the latest hour for every sensor. Then,
// for DURATION seconds at once: the gateways of every store posting gzip batches through the
// HTTP API at RATE readings/s, a worker with a local SMTP server and an alert probe every
// PROBE_EVERY s (reading over the limit → mail), and USERS signed-in users loading the
// dashboard (first, middle and last page, each filter, name search), the sensor views, a day
// and a month graph and the alert history. Prints the JSON and which targets of part 2 hold;
// writes it and a chart of latency over time (HTML with inline SVG) to OUT.
//   STORES=2000 scales everything down (RATE and WATCHED follow); also WATCHED, MONTH_DAYS,
//   RECENT_MINUTES, RATE, DURATION (s), USERS, PAUSE_MS, PROBE_EVERY (s), OUT (tmp/chain-rig),
//   PROFILE (a folder for the web process's CPU profile).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { rigOptionsFromEnv, runChainRig } from './chain/rig';

async function main() {
  const options = rigOptionsFromEnv(process.env);
  const out = path.resolve(process.env.OUT ?? 'tmp/chain-rig');
  const { result, chart } = await runChainRig(options);
  mkdirSync(out, { recursive: true });
  const name = `chain-${options.stores}`;
  writeFileSync(path.join(out, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(out, `${name}.html`), chart);
  console.log(JSON.stringify(result, null, 2));
  for (const target of result.targets) console.log(`${target.holds ? 'HOLDS ' : 'MISSED'}  ${target.name}: p95 ${target.p95} ${target.unit} (target ≤ ${target.limit} ${target.unit})`);
  console.log(`written: ${path.join(out, `${name}.json`)} and .html`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
