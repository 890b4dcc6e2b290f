// onreco alert-stops list | create | delete: a store's alert-stop schedules (警報停止) through the
// API, as the alert-stop editor saves them (the server applies 001 §4's rules: periodic is weekly,
// ranges merge on the 30-minute grid, and so on).
import { Command, Option } from 'commander';
import { deleteAlertSchedule, listAlertSchedules, saveAlertSchedule } from '../../app/domain/api/alert-schedules';
import { WEEKDAY_FLAGS } from '../../app/domain/alert-stop-editor';
import { SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE } from '../../app/domain/alert-stop-schedule';
import { toCompactDate } from '../../app/domain/japan-time';
import type { WireInput } from '../client';
import { UsageError } from '../errors';
import { print, tableText } from '../output';
import { type CliContext, clientOf, compactDay, examples, positiveInteger, withJson } from './common';

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const TERM_TEXT: Record<number, string> = { [TERM_TYPE.weekly]: 'weekly', [TERM_TYPE.daily]: 'daily', [TERM_TYPE.freePeriod]: 'period' };
const dayText = (value: string | null) => (value ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : null);

/** 02:00-04:00,22:00-24:00 as time_schedules (the server checks the 30-minute grid). */
function rangesOf(value: string): { start: string; end: string }[] {
  return value.split(',').map((range) => {
    const match = /^\s*(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$/.exec(range);
    if (!match) throw new UsageError(`--times takes ranges like 02:00-04:00,22:00-24:00, not "${range}"`);
    return { start: match[1].padStart(5, '0'), end: match[2].padStart(5, '0') };
  });
}

function daysOf(value: string): string[] {
  const days = value.split(',').map((day) => day.trim().toLowerCase());
  for (const day of days) if (!(DAY_NAMES as readonly string[]).includes(day)) throw new UsageError(`--days takes ${DAY_NAMES.join(',')}, not "${day}"`);
  return days;
}

const collectIds = (value: string, previous: number[] = []) => [...previous, ...value.split(',').map((id) => positiveInteger('--sensor')(id.trim()))];

function listCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('list')
      .description('the store\'s alert-stop schedules in force on a day of the period (default: today and the next 30 days)')
      .argument('<store_id>')
      .option('--from <date>', 'first day (Japan time)', compactDay('--from'))
      .option('--to <date>', 'last day, at most 366 days after --from', compactDay('--to')),
  ).action(async (storeId: string, options) => {
    const today = new Date();
    const from: string = options.from ?? toCompactDate(today);
    const to: string = options.to ?? toCompactDate(new Date(today.getTime() + 30 * 86_400_000));
    const answer = await (await clientOf(ctx)).call(listAlertSchedules, { store_id: storeId, start_date: from, end_date: to });
    const sensorName = new Map(answer.sensors.map((sensor) => [sensor.equipment_id, sensor.equipment_name]));
    print(ctx, options, answer, () =>
      tableText(
        answer.schedules,
        [
          { header: 'ID', value: (schedule) => schedule.schedule_id, align: 'right' },
          { header: 'TYPE', value: (schedule) => (schedule.schedule_type === SCHEDULE_TYPE.periodic ? 'periodic' : 'sequential') },
          { header: 'TERM', value: (schedule) => TERM_TEXT[schedule.term_type] ?? schedule.term_type },
          { header: 'FROM', value: (schedule) => dayText(schedule.start_date) },
          { header: 'TO', value: (schedule) => dayText(schedule.end_date) },
          { header: 'DAYS', value: (schedule) => (schedule.term_type === TERM_TYPE.daily ? null : DAY_NAMES.filter((_, index) => schedule[WEEKDAY_FLAGS[index]] === 1).join(',')) },
          {
            header: 'TIMES',
            value: (schedule) =>
              schedule.times
                .map((time) => `${time.equipment_id === null ? '' : `${sensorName.get(time.equipment_id) ?? time.equipment_name} `}${time.time_schedules.map((range) => `${range.start}-${range.end}`).join(',')}`)
                .join('; '),
          },
        ],
        `no alert-stop schedules from ${dayText(from)} to ${dayText(to)}`,
      ),
    );
  });
  return examples(command, 'onreco alert-stops list S0001', 'onreco alert-stops list S0001 --from 2026-12-01 --to 2026-12-31 --json');
}

type ScheduleSave = WireInput<typeof saveAlertSchedule>;

function createCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('create')
      .description('create an alert-stop schedule: no alert opens and nothing is notified in its times')
      .argument('<store_id>')
      .requiredOption('--from <date>', 'start date', compactDay('--from'))
      .option('--to <date>', 'end date (periodic and --term period)', compactDay('--to'))
      .option('--periodic', 'repeat every week (default: once, sequential)')
      .addOption(new Option('--term <term>', 'for a sequential schedule: the day of --from, its week, or --from to --to').choices(['daily', 'weekly', 'period']).default('daily'))
      .option('--days <days>', 'weekdays for weekly schedules, e.g. mon,tue,wed', daysOf)
      .requiredOption('--times <ranges>', 'time ranges on the 30-minute grid, e.g. 02:00-04:00,22:00-24:00')
      .option('--sensor <ids>', 'only these sensors (comma separated, repeatable); default the whole store', collectIds),
  ).action(async (storeId: string, options) => {
    const ranges = rangesOf(options.times);
    const client = await clientOf(ctx);
    const sensors: number[] = options.sensor ?? [];
    const weekday = Object.fromEntries(WEEKDAY_FLAGS.map((flag, index) => [flag, (options.days as string[] | undefined)?.includes(DAY_NAMES[index]) ? 1 : 0]));
    const entity: ScheduleSave = {
      store_id: storeId,
      schedule_id: null,
      schedule_type: options.periodic ? SCHEDULE_TYPE.periodic : SCHEDULE_TYPE.sequential,
      term_type: options.periodic ? TERM_TYPE.weekly : { daily: TERM_TYPE.daily, weekly: TERM_TYPE.weekly, period: TERM_TYPE.freePeriod }[options.term as 'daily' | 'weekly' | 'period'],
      start_date: options.from,
      end_date: options.to ?? null,
      ...weekday,
      time_target_type: sensors.length > 0 ? TIME_TARGET_TYPE.sensor : TIME_TARGET_TYPE.store,
      times: sensors.length > 0 ? sensors.map((equipmentId) => ({ equipment_id: equipmentId, time_schedules: ranges })) : [{ equipment_id: null, time_schedules: ranges }],
    } as ScheduleSave;
    const saved = await client.call(saveAlertSchedule, entity);
    print(ctx, options, saved, () => `Created alert-stop schedule ${saved.schedule_id} of store ${saved.store_id}.\n`);
  });
  return examples(
    command,
    'onreco alert-stops create S0001 --from 2026-12-05 --times 01:00-05:00',
    'onreco alert-stops create S0001 --periodic --from 2026-12-01 --days mon,thu --times 02:00-03:00 --sensor 12,13',
  );
}

function deleteCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('delete').description('delete an alert-stop schedule').argument('<store_id>').argument('<schedule_id>', 'the schedule id (from list)', positiveInteger('schedule_id')),
  ).action(async (storeId: string, scheduleId: number, options) => {
    const deleted = await (await clientOf(ctx)).call(deleteAlertSchedule, { store_id: storeId, schedule_id: scheduleId });
    print(ctx, options, deleted, () => `Deleted alert-stop schedule ${deleted.schedule_id} of store ${deleted.store_id}.\n`);
  });
  return examples(command, 'onreco alert-stops delete S0001 7');
}

export function alertStopsCommand(ctx: CliContext): Command {
  return new Command('alert-stops').description('alert-stop schedules: list, create, delete').addCommand(listCommand(ctx)).addCommand(createCommand(ctx)).addCommand(deleteCommand(ctx));
}
