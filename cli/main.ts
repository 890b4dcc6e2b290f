// The process entry of `onreco` (bin/onreco.js runs the bundle of this file; `npm run cli` runs it through tsx).
import { runCli } from './index';
import { processContext } from './context';

process.exitCode = await runCli(process.argv.slice(2), processContext());
