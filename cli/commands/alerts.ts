// onreco alerts list | stop: a store's alert history and stopping an alert (as the console's
// alert history page does, with the corrective-action comment).
import { Command } from 'commander';
import { listAlertHistory, stopAlert } from '../../app/domain/api/alerts';
import { listStoreSensors } from '../../app/domain/api/sensors';
import type { WireAnswer } from '../client';
import { CliError } from '../errors';
import { print, stampText, tableText, withProgress } from '../output';
import { type CliContext, clientOf, compactDay, examples, positiveInteger, withJson } from './common';

type AlertRow = WireAnswer<typeof listAlertHistory>['alerts'][number];


function listCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('list')
      .description('the store\'s alert history, newest first (every page; default the last month)')
      .argument('<store_id>')
      .option('--from <date>', 'first day (Japan time)', compactDay('--from'))
      .option('--to <date>', 'last day (Japan time)', compactDay('--to'))
      .option('--sensor <id>', 'only this sensor', positiveInteger('--sensor')),
  ).action(async (storeId: string, options) => {
    const client = await clientOf(ctx);
    const query = { store_id: storeId, equipment_id: options.sensor === undefined ? undefined : String(options.sensor), start_date: options.from, end_date: options.to };
    const alerts = await withProgress(ctx, 'Fetching alerts', async (report) => {
      const rows: AlertRow[] = [];
      for (let pageNo = 1; ; pageNo++) {
        const page = await client.call(listAlertHistory, { ...query, page_no: pageNo, page_count: 100 });
        rows.push(...page.alerts);
        report(`${rows.length}/${page.all_count}`);
        if (rows.length >= page.all_count || page.alerts.length === 0) return { all_count: page.all_count, alerts: rows };
      }
    });
    print(ctx, options, alerts, () =>
      tableText(
        alerts.alerts,
        [
          { header: 'STARTED', value: (alert) => stampText(alert.start_date) },
          { header: 'SENSOR', value: (alert) => (alert.equipment_id === null ? '(store)' : `${alert.equipment_name} (${alert.equipment_id})`) },
          { header: 'CODE', value: (alert) => alert.alert_id },
          { header: 'VALUE', value: (alert) => alert.alert_data1 },
          { header: 'RECOVERED', value: (alert) => stampText(alert.recovered_date) },
          { header: 'STOPPED', value: (alert) => (alert.stopped ? `${stampText(alert.stopped_date)} ${alert.stopped_by_name ?? ''}`.trim() : null) },
          { header: 'COMMENT', value: (alert) => alert.stop_comment },
        ],
        'no alerts in this period',
      ),
    );
  });
  return examples(command, 'onreco alerts list S0001', 'onreco alerts list S0001 --from 2026-10-01 --to 2026-10-31 --json');
}

function stopCommand(ctx: CliContext): Command {
  const command = withJson(
    new Command('stop')
      .description('stop an active alert of a sensor (no more re-notification; it stays in the history until it recovers)')
      .argument('<store_id>')
      .argument('<sensor_id>', 'the sensor (equipment id)', positiveInteger('sensor_id'))
      .argument('<code>', 'the alert code, e.g. OE00000001')
      .option('--comment <text>', 'the corrective action taken'),
  ).action(async (storeId: string, sensorId: number, code: string, options) => {
    const client = await clientOf(ctx);
    const sensors = await client.call(listStoreSensors, { store_id: storeId, include_hidden: '1' });
    if (!sensors.sensors.some((sensor) => sensor.equipment_id === sensorId)) throw new CliError(`sensor ${sensorId} is not a sensor of store ${storeId}`);
    const stopped = await client.call(stopAlert, { equipment_id: sensorId, alert_id: code, comment: options.comment ?? null });
    print(ctx, options, stopped, () =>
      stopped.already_stopped ? `Alert ${code} of sensor ${sensorId} was already stopped.\n` : `Stopped alert ${code} of sensor ${sensorId} at ${stampText(stopped.stopped_date.slice(0, 14))}.\n`,
    );
  });
  return examples(command, 'onreco alerts stop S0001 12 OE00000001 --comment "扉を閉めて温度回復を確認"');
}

export function alertsCommand(ctx: CliContext): Command {
  return new Command('alerts').description('alert history and stopping alerts').addCommand(listCommand(ctx)).addCommand(stopCommand(ctx));
}
