import type { Db } from '~/db/db.server';
import { alertText, isAlertCode } from '~/domain/alert-codes';
import type { ReportDocument, ReportFormat, ReportSensor, ReportSettingsPeriod, ReportType, ReportWindow } from '~/domain/report-document';
import { OUTPUT_FORMAT, reportIntervalOf } from '~/domain/report-form';
import { bucketReadings, bucketSummaryParts, emptyBuckets, planBuckets, usedBucketsHaveReadings } from '~/domain/report-buckets';
import { chartPoints, defrostWindows, emptySeries, NO_POINTS, type ReadingSeries, stopWindows, tableRows, tableTimes } from '~/domain/report-rows';
import { addSummaryParts, slotSpan, type SummaryParts, summaryFrom, summaryPartsOf } from '~/domain/report-summary';
import { retentionNotice } from '~/domain/retention';
import { documentNumber, reportTitle } from '~/domain/report-title';
import { loadAlertStopSchedules } from '~/models/alert-schedules.server';
import { retentionPolicy } from '~/services/retention.server';
import { settingsInForceBySensor } from '~/models/sensor-settings.server';
import { type ReportRequest } from '~/models/report-history.server';
import { getReportStore, reportAlerts, reportBuckets, reportComments, reportReadingRanges, reportReadingSeries, reportSensors } from '~/models/report-collection.server';

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
  /** The report run's history row (its document number); absent for a render without one. */
  historyNo?: number;
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

/** Periods up to this long read every reading (a day report: every reading on the chart, and few to read). */
const RAW_PERIOD_MS = 3 * 86_400_000;

/**
 * What the report prints of each sensor's readings: its table rows, chart points (a PDF's; null
 * for a CSV) and summary sums. Long periods read the 10-minute buckets and only the buckets they
 * cannot answer raw (domain/report-buckets.ts); `raw` reads every reading (short periods, and the
 * bench's before).
 */
async function collectReadings(
  db: Db,
  storeId: string,
  span: { from: Date; until: Date },
  times: Float64Array,
  sensors: readonly { equipmentId: number; settings: ReportSettingsPeriod[]; excluded: ReportWindow[] }[],
  options: { raw: boolean; chart: boolean },
) {
  const ids = sensors.map((sensor) => sensor.equipmentId);
  const from = span.from.getTime();
  const until = span.until.getTime();
  const out = new Map<number, { table: ReadingSeries; chart: ReadingSeries | null; hasReadings: boolean; parts: SummaryParts }>();
  if (options.raw || until - from <= RAW_PERIOD_MS) {
    const readings = await reportReadingSeries(db, storeId, ids, span.from, span.until);
    for (const sensor of sensors) {
      const own = readings.get(sensor.equipmentId) ?? emptySeries();
      out.set(sensor.equipmentId, { table: own, chart: options.chart ? own : null, hasReadings: own.length > 0, parts: summaryPartsOf(own, sensor.settings, sensor.excluded, { from, until }) });
    }
    return out;
  }
  const buckets = await reportBuckets(db, storeId, ids, span.from, span.until);
  const plans = sensors.map((sensor) => {
    const own = buckets.get(sensor.equipmentId) ?? emptyBuckets();
    return { sensor, own, plan: planBuckets(own, { from, until }, times, sensor.settings, sensor.excluded, { chart: options.chart }) };
  });
  const readings = await reportReadingRanges(db, storeId, plans.flatMap(({ sensor, plan }) => plan.raw.map(([a, b]) => ({ equipmentId: sensor.equipmentId, from: a, to: b }))));
  for (const { sensor, own, plan } of plans) {
    const rawOwn = readings.get(sensor.equipmentId) ?? emptySeries();
    out.set(sensor.equipmentId, {
      table: bucketReadings(own, plan.use, rawOwn, 'mark'),
      chart: options.chart ? bucketReadings(own, plan.use, rawOwn, 'extremes') : null,
      hasReadings: rawOwn.length > 0 || usedBucketsHaveReadings(own, plan.use),
      parts: addSummaryParts(bucketSummaryParts(own, plan), summaryPartsOf(rawOwn, sensor.settings, sensor.excluded, { from, until })),
    });
  }
  return out;
}

export async function collectReport(db: Db, source: ReportSource, options: { rawReadings?: boolean } = {}): Promise<ReportDocument> {
  const store = await getReportStore(db, source.storeId);
  if (!store) throw new Error(`store ${source.storeId} does not exist`);
  const { request } = source;
  const period = { from: source.startTime, to: source.endTime };
  // Readings up to the end of the last row's ten minutes.
  const until = new Date(source.endTime.getTime() + 10 * 60_000);
  const sensors = await reportSensors(db, source.storeId, request.equipmentIds);
  const ids = sensors.map((sensor) => sensor.equipmentId);
  const [settings, comments, alerts, schedules] = await Promise.all([
    settingsInForceBySensor(db, source.storeId, ids, period.from, until),
    request.option1 === 1 ? reportComments(db, source.storeId, ids, period.from, until) : Promise.resolve([]),
    request.option2 === 1 ? reportAlerts(db, source.storeId, ids, period.from, until) : Promise.resolve([]),
    loadAlertStopSchedules(db, source.storeId),
  ]);
  const interval = reportIntervalOf(request.dataInterval, request.manualTimes);
  // The table's instants, one array for every sensor's table.
  const times = Float64Array.from(tableTimes(period, interval), (at) => at.getTime());
  const commentsOf = groupBy(comments);
  const alertsOf = groupBy(alerts);
  const windowed = sensors.map((sensor) => {
    const inForce = settings.get(sensor.equipmentId) ?? [];
    const defrost = defrostWindows(period, inForce);
    const stops = stopWindows(period, schedules, sensor.equipmentId);
    return { sensor, inForce, defrost, stops, equipmentId: sensor.equipmentId, settings: inForce, excluded: [...defrost, ...stops] };
  });
  // Only the PDF draws the chart: a CSV neither makes the ~4,000 points a sensor of a month has nor reads raw what only the chart's line needs.
  const chart = source.outputFormat === OUTPUT_FORMAT.pdf;
  const slots = slotSpan({ from: period.from.getTime(), until: until.getTime() }).count;
  const readings = await collectReadings(db, source.storeId, { from: period.from, until }, times, windowed, { raw: options.rawReadings ?? false, chart });

  const reportSensorsList = windowed.map(({ sensor, inForce, defrost, stops }): ReportSensor => {
    const own = readings.get(sensor.equipmentId)!;
    return {
      equipmentId: sensor.equipmentId,
      name: sensor.name,
      serialNo: sensor.serialNo,
      iconKind: sensor.iconKind,
      settings: inForce,
      points: own.chart ? chartPoints(own.chart, period.from.getTime(), until.getTime()) : NO_POINTS,
      hasReadings: own.hasReadings,
      table: tableRows(times, own.table, inForce),
      defrostWindows: defrost,
      stopWindows: stops,
      comments: request.option1 === 1 ? (commentsOf.get(sensor.equipmentId) ?? []).map((row) => ({ at: row.at, comment: row.comment, userName: row.userName })) : null,
      summary:
        request.option2 === 1
          ? {
              ...summaryFrom(own.parts, slots),
              alerts: (alertsOf.get(sensor.equipmentId) ?? []).map((alert) => ({
                alertId: alert.alertId,
                label: isAlertCode(alert.alertId) ? alertText(alert.alertId, 'JP', 2) : alert.alertId,
                startedAt: alert.startedAt,
                recoveredAt: alert.recoveredAt,
                stoppedAt: alert.stoppedAt,
                stoppedBy: alert.stoppedBy,
                stopComment: alert.stopComment,
                acknowledgedAt: alert.acknowledgedAt,
                acknowledgedByName: alert.acknowledgedByName,
                correctiveAction: alert.correctiveAction,
                acknowledgeNote: alert.acknowledgeNote,
              })),
            }
          : null,
    };
  });

  const named = { reportType: source.reportType as ReportType, store, period };
  return {
    title: reportTitle(named),
    documentNumber: documentNumber(store.storeNo, source.historyNo ?? null, source.createdAt),
    settingName: request.settingName,
    appendix: request.appendix ?? true,
    fileName: source.fileName,
    reportType: source.reportType as ReportType,
    format: source.outputFormat as ReportFormat,
    store: { storeId: store.storeId, storeNo: store.storeNo, storeName: store.storeName },
    period,
    createdAt: source.createdAt,
    createdBy: request.createdByName,
    interval,
    sensors: reportSensorsList,
    // Beyond retention when the report was asked for (a regular one: when it was scheduled).
    retention: retentionNotice(period, retentionPolicy(source.createdAt).readings),
  };
}
