import type { Db } from '~/db/db.server';
import { alertText, isAlertCode } from '~/domain/alert-codes';
import type { ReportDocument, ReportFormat, ReportSensor, ReportType } from '~/domain/report-document';
import { reportIntervalOf } from '~/domain/report-form';
import { chartPoints, defrostWindows, emptySeries, stopWindows, summaryOf, tableRows, tableTimes } from '~/domain/report-rows';
import { loadAlertStopSchedules } from '~/models/alert-schedules.server';
import { settingsInForceBySensor } from '~/models/sensor-settings.server';
import {
  getReportStore,
  type ReportRequest,
  reportAlerts,
  reportComments,
  reportReadingSeries,
  reportSensors,
} from '~/models/reports.server';

// Report collection: what one report prints, as data (domain/report-document.ts), for the PDF and
// CSV renderers. A period without readings gives sensors with empty points and '--' rows.

export interface ReportSource {
  storeId: string;
  fileName: string;
  reportType: number;
  outputFormat: number;
  startTime: Date;
  endTime: Date;
  createdAt: Date;
  request: ReportRequest;
}

const groupBy = <T extends { equipmentId: number | null }>(rows: readonly T[]) => {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    if (row.equipmentId === null) continue;
    const list = groups.get(row.equipmentId);
    if (list) list.push(row);
    else groups.set(row.equipmentId, [row]);
  }
  return groups;
};

export async function collectReport(db: Db, source: ReportSource): Promise<ReportDocument> {
  const store = await getReportStore(db, source.storeId);
  if (!store) throw new Error(`store ${source.storeId} does not exist`);
  const { request } = source;
  const period = { from: source.startTime, to: source.endTime };
  // Readings up to the end of the last row's ten minutes.
  const until = new Date(source.endTime.getTime() + 10 * 60_000);
  const sensors = await reportSensors(db, source.storeId, request.equipmentIds);
  const ids = sensors.map((sensor) => sensor.equipmentId);
  const [settings, readings, comments, alerts, schedules] = await Promise.all([
    settingsInForceBySensor(db, source.storeId, ids, period.from, until),
    reportReadingSeries(db, source.storeId, ids, period.from, until),
    request.option1 === 1 ? reportComments(db, source.storeId, ids, period.from, until) : Promise.resolve([]),
    request.option2 === 1 ? reportAlerts(db, source.storeId, ids, period.from, until) : Promise.resolve([]),
    loadAlertStopSchedules(db, source.storeId),
  ]);
  const interval = reportIntervalOf(request.dataInterval, request.manualTimes);
  const times = tableTimes(period, interval);
  const commentsOf = groupBy(comments);
  const alertsOf = groupBy(alerts);

  const reportSensorsList = sensors.map((sensor): ReportSensor => {
    const inForce = settings.get(sensor.equipmentId) ?? [];
    const own = readings.get(sensor.equipmentId) ?? emptySeries();
    const defrost = defrostWindows(period, inForce);
    const stops = stopWindows(period, schedules, sensor.equipmentId);
    return {
      equipmentId: sensor.equipmentId,
      name: sensor.name,
      serialNo: sensor.serialNo,
      iconKind: sensor.iconKind,
      settings: inForce,
      points: chartPoints(own, period.from.getTime(), until.getTime()),
      rows: tableRows(times, own, inForce),
      defrostWindows: defrost,
      stopWindows: stops,
      comments: request.option1 === 1 ? (commentsOf.get(sensor.equipmentId) ?? []).map((row) => ({ at: row.at, comment: row.comment, userName: row.userName })) : null,
      summary:
        request.option2 === 1
          ? {
              ...summaryOf(own, inForce, [...defrost, ...stops]),
              alerts: (alertsOf.get(sensor.equipmentId) ?? []).map((alert) => ({
                alertId: alert.alertId,
                label: isAlertCode(alert.alertId) ? alertText(alert.alertId, 'JP', 2) : alert.alertId,
                startedAt: alert.startedAt,
                recoveredAt: alert.recoveredAt,
                stoppedAt: alert.stoppedAt,
                stoppedBy: alert.stoppedBy,
                stopComment: alert.stopComment,
              })),
            }
          : null,
    };
  });

  return {
    title: request.settingName,
    fileName: source.fileName,
    reportType: source.reportType as ReportType,
    format: source.outputFormat as ReportFormat,
    store: { storeId: store.storeId, storeNo: store.storeNo, storeName: store.storeName },
    period,
    createdAt: source.createdAt,
    createdBy: request.createdByName,
    interval,
    sensors: reportSensorsList,
  };
}
