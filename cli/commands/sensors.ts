// onreco sensors list | show | update: a store's sensors and their settings through the API (the
// sensors page and the sensor form). An update fetches the detail first and posts it back with the
// flags on top and its updated_at, so a sensor saved meanwhile by someone else is refused (409).
import { Command } from 'commander';
import { getEquipment } from '../../app/domain/api/sensors';
import { importEquipments, listEquipments, saveEquipment } from '../../app/domain/api/sensor-settings';
import type { WireInput } from '../client';
import { UsageError } from '../errors';
import { SENSOR_COLUMNS, sensorLines, sensorsOfFile } from '../import-file';
import { print, recordText, stampText, tableText } from '../output';
import { type CliContext, clientOf, examples, positiveInteger, readCsvFile, withJson } from './common';
import { runImport } from './import-run';

const compactDayText = (value: string | null) => (value ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : null);
const limitsText = (lower: number | null, upper: number | null) => (lower === null || upper === null ? null : `${lower} … ${upper} ℃`);

/** 02:00-02:30,14:00-14:30 as the API's def_time; an empty text clears the ranges. */
export function defrostOf(value: string): { start: string; end: string }[] {
  if (value.trim() === '') return [];
  return value.split(',').map((range) => {
    const match = /^\s*(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$/.exec(range);
    if (!match) throw new UsageError(`--defrost takes ranges like 02:00-02:30,14:00-14:30, not "${range}"`);
    return { start: match[1].padStart(5, '0'), end: match[2].padStart(5, '0') };
  });
}

/** A limit given on the command line: a number with at most one decimal, or `none`. */
const limitOf = (name: string) => (value: string): number | null => {
  if (value === 'none') return null;
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new UsageError(`${name} must be a number like 8.5 or none, not "${value}"`);
  return Number(value);
};
const minutesOf = (name: string) => (value: string): number | null => (value === 'none' ? null : positiveInteger(name)(value));

function listCommand(ctx: CliContext): Command {
  const command = withJson(new Command('list').description('every sensor of a store with its settings (hidden and removed ones too)').argument('<store_id>')).action(
    async (storeId: string, options) => {
      const answer = await (await clientOf(ctx)).call(listEquipments, { store_id: storeId });
      print(ctx, options, answer, () =>
        tableText(
          answer.equipments,
          [
            { header: 'ID', value: (sensor) => sensor.equipment_id, align: 'right' },
            { header: 'NO', value: (sensor) => sensor.location_no, align: 'right' },
            { header: 'NAME', value: (sensor) => sensor.equipment_name },
            { header: 'SERIAL', value: (sensor) => sensor.serial_no },
            { header: 'LIMITS', value: (sensor) => limitsText(sensor.lower_limit, sensor.upper_limit) },
            { header: 'GUARD', value: (sensor) => sensor.guard_time, align: 'right' },
            { header: 'SNOOZE', value: (sensor) => sensor.snoozing_time, align: 'right' },
            { header: 'SHOWN', value: (sensor) => (sensor.disp_flg === 1 ? 'yes' : 'no') },
            { header: 'REMOVAL', value: (sensor) => compactDayText(sensor.removal_datetime) },
            { header: 'LAST READING', value: (sensor) => stampText(sensor.last_measure_datetime) },
          ],
          `store ${answer.store_id} has no sensors`,
        ) + `${answer.equipments.length} sensors of ${answer.store_name} (${answer.store_id})\n`,
      );
    },
  );
  return examples(command, 'onreco sensors list S0001', 'onreco sensors list S0001 --json > sensors.json');
}

function showCommand(ctx: CliContext): Command {
  const command = withJson(new Command('show').description('one sensor\'s settings').argument('<sensor_id>', 'the sensor (equipment id)', positiveInteger('sensor_id'))).action(
    async (sensorId: number, options) => {
      const sensor = await (await clientOf(ctx)).call(getEquipment, { equipment_id: sensorId });
      print(ctx, options, sensor, () =>
        recordText([
          ['sensor id', sensor.equipment_id],
          ['name', sensor.equipment_name],
          ['store', sensor.store_id],
          ['serial', sensor.serial_no],
          ['model', sensor.model_name],
          ['location no', sensor.location_no],
          ['limits', limitsText(sensor.lower_limit, sensor.upper_limit)],
          ['guard time', sensor.guard_time === null ? null : `${sensor.guard_time} min`],
          ['snooze', sensor.snoozing_time === null ? null : `${sensor.snoozing_time} min`],
          ['defrost', sensor.def_time.map((range) => `${range.start}-${range.end}`).join(',')],
          ['time constant', sensor.time_constant],
          ['measured', sensor.measure_target_equipment_kind_name],
          ['installed', compactDayText(sensor.installation_datetime)],
          ['removal', compactDayText(sensor.removal_datetime)],
          ['shown', sensor.disp_flg === 1 ? 'yes' : 'no'],
          ['updated at', sensor.updated_at],
        ]),
      );
    },
  );
  return examples(command, 'onreco sensors show 12', 'onreco sensors show 12 --json');
}

type SensorSave = WireInput<typeof saveEquipment>;

function updateCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('update')
      .description('change a sensor\'s settings: the flags given, the rest as it is')
      .argument('<sensor_id>', 'the sensor (equipment id)', positiveInteger('sensor_id'))
      .option('--name <name>', 'sensor name (at most 30 characters)')
      .option('--lower <℃>', 'lower limit (none with --upper none clears both)', limitOf('--lower'))
      .option('--upper <℃>', 'upper limit', limitOf('--upper'))
      .option('--guard <minutes>', 'guard time, 1-360 (none clears it)', minutesOf('--guard'))
      .option('--snooze <minutes>', 'snooze time, 1-1440 (none clears it)', minutesOf('--snooze'))
      .option('--defrost <ranges>', 'defrost ranges like 02:00-02:30,14:00-14:30 ("" clears them)', defrostOf)
      .option('--time-constant <n>', 'time constant, 1-200', positiveInteger('--time-constant'))
      .option('--hidden', 'hide the sensor on the dashboard')
      .option('--shown', 'show the sensor on the dashboard'),
  ).action(async (sensorId: number, options) => {
    if (options.hidden && options.shown) throw new UsageError('--hidden or --shown, not both');
    const client = await clientOf(ctx);
    const current = await client.call(getEquipment, { equipment_id: sensorId });
    const entity: SensorSave = {
      store_id: current.store_id,
      equipment_id: current.equipment_id,
      updated_at: current.updated_at,
      equipment_name: options.name ?? current.equipment_name,
      installation_datetime: current.installation_datetime,
      removal_datetime: current.removal_datetime,
      measure_target_equipment_kind_id: current.measure_target_equipment_kind_id,
      lower_limit: options.lower !== undefined ? options.lower : current.lower_limit,
      upper_limit: options.upper !== undefined ? options.upper : current.upper_limit,
      guard_time: options.guard !== undefined ? options.guard : current.guard_time,
      snoozing_time: options.snooze !== undefined ? options.snooze : current.snoozing_time,
      icon_kind: current.icon_kind,
      def_time: options.defrost ?? current.def_time,
      time_constant: options.timeConstant ?? current.time_constant,
      disp_flg: options.hidden ? 0 : options.shown ? 1 : current.disp_flg,
    };
    const saved = await client.call(saveEquipment, entity);
    print(ctx, options, saved, () => `Updated sensor ${saved.equipment_id} of store ${saved.store_id}.\n`);
  });
  return examples(command, 'onreco sensors update 12 --lower 0 --upper 8 --guard 30 --snooze 60', 'onreco sensors update 12 --defrost 02:00-02:30,14:00-14:30', 'onreco sensors update 12 --defrost ""');
}

function importCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('import')
      .description('register a store\'s sensors from a CSV file, all or nothing; serials the store has are left as they are')
      .argument('<store_id>')
      .argument('<file.csv>', 'CSV in UTF-8 or Shift_JIS (Excel), one row per sensor (- for stdin)')
      .option('--dry-run', 'check the whole file and tell what would be registered, writing nothing'),
  ).action(async (storeId: string, file: string, options) => {
    const { sensors, lines } = await sensorsOfFile(await readCsvFile(ctx, file), file, storeId);
    await runImport(ctx, options, file, importEquipments, { dry_run: options.dryRun === true, store_id: storeId, sensors } as WireInput<typeof importEquipments>, sensorLines(lines));
  });
  command.addHelpText('after', `\nColumns (docs/cli.md): ${SENSOR_COLUMNS.join(', ')} (and store_id, which must be the store's).`);
  return examples(command, 'onreco sensors import S0001 sensors.csv --dry-run', 'onreco sensors import S0001 sensors.csv');
}

export function sensorsCommand(ctx: CliContext): Command {
  return new Command('sensors')
    .description('a store\'s sensors: list, show, update, import')
    .addCommand(listCommand(ctx))
    .addCommand(showCommand(ctx))
    .addCommand(updateCommand(ctx))
    .addCommand(importCommand(ctx));
}
