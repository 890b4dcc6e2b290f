// Equipment indicators (docs/decisions/298-equipment-indicators.md): CPU of the pure computation
// of one day's indicators for N sensors of 1,440 minute readings, extrapolated to 400,000 sensors.
// The database reads are not included (measured separately when the job is benched on PostgreSQL).
//   npx tsx tests/bench/equipment-indicators.ts        (SENSORS=2000 to change N)
import { readFileSync } from 'node:fs';
import { dailyIndicators, type IndicatorReading } from '../../app/domain/equipment-indicators';
import { fromJapan } from '../../app/domain/japan-time';

const SENSORS = Number(process.env.SENSORS ?? 2000);
const settings = { lowerLimit: -25, upperLimit: -15, timeConstant: 100, defrostRanges: [{ start: 120, end: 150 }, { start: 840, end: 870 }] };
const day: IndicatorReading[] = Array.from({ length: 1440 }, (_, minute) => ({
  at: fromJapan(2026, 11, 10, 0, minute),
  temperature: (minute >= 120 && minute < 150) || (minute >= 840 && minute < 870) ? -8 : -21 + 0.3 * Math.sin(minute / 7),
}));

const start = process.cpuUsage();
for (let i = 0; i < SENSORS; i++) dailyIndicators(day, settings);
const { user, system } = process.cpuUsage(start);
const cpuSeconds = (user + system) / 1e6;
const perCoreMinute = Math.round((SENSORS / cpuSeconds) * 60);
console.log(`${SENSORS} sensors: ${cpuSeconds.toFixed(2)} s CPU; ${perCoreMinute} sensors per core-minute; 400,000 sensors: ${((400_000 / perCoreMinute)).toFixed(1)} core-minutes`);
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
