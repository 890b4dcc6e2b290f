// The report PDF's figure (issue 14): a month at the 10-minute interval of a 20-sensor store with
// both options (4,464 table rows and 44,640 one-minute chart points per sensor) rendered by
// renderReportPdf: p50 / p95 time over RUNS renders and the process's peak RSS. Targets: ≤ 3 s,
// ≤ 300 MB. Run: env -u DATABASE_URL npx tsx tests/bench/report-pdf.ts [runs] [--no-appendix]
import { renderReportPdf } from '../../app/reports/pdf.server';
import { sampleReportDocument } from '../support/report-sample';
import { chartPoints } from '../../app/domain/report-rows';

const RUNS = Number(process.argv[2] ?? 5);
/** `--no-appendix`: the document without the raw values (the report setting's choice, docs/decisions/287). */
const APPENDIX = !process.argv.includes('--no-appendix');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

const doc = sampleReportDocument({ sensors: 20, days: 31, year: 2026, month: 10, intervalMinutes: 10, pointMinutes: 1, appendix: APPENDIX });
// The chart points as collection hands them over (first/min/max/last per 1/1000 of the period,
// docs/decisions/148-report-speed.md).
for (const s of doc.sensors) s.points = chartPoints({ ...s.points, error: new Uint8Array(s.points.length) }, doc.period.from.getTime(), doc.period.to.getTime());
const rows = doc.sensors.reduce((sum, s) => sum + s.table.length, 0);
const points = doc.sensors.reduce((sum, s) => sum + s.points.length, 0);
console.log(`[report-pdf] ${doc.sensors.length} sensors, ${APPENDIX ? 'with' : 'without'} the appendix, ${rows} table rows, ${points} chart points, ${RUNS} runs`);
let peak = process.memoryUsage().rss;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const times: number[] = [];
const cpu: number[] = [];
let bytes = 0;
let pages = 0;
await renderReportPdf(sampleReportDocument({ sensors: 1, days: 1 })); // loads pdfmake and the font once, as a worker would have
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const pdf = await renderReportPdf(doc);
  times.push(performance.now() - started);
  const used = process.cpuUsage(cpuStart);
  cpu.push((used.user + used.system) / 1000);
  bytes = pdf.length;
  pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
  peak = Math.max(peak, process.memoryUsage().rss);
}
clearInterval(timer);
console.log(`[report-pdf] render p50 ${(percentile(times, 0.5) / 1000).toFixed(2)} s, p95 ${(percentile(times, 0.95) / 1000).toFixed(2)} s, CPU p50 ${(percentile(cpu, 0.5) / 1000).toFixed(2)} s, peak RSS ${Math.round(peak / 1e6)} MB, load ${(await import('node:os')).loadavg()[0].toFixed(1)}, ${Math.round(bytes / 1024)} KiB PDF, ${pages} pages`);
