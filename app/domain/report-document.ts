// The report as data: what collection (app/reports/collect.server.ts) produces and what the PDF
// and CSV renderers print. It is the one contract between the two halves, so either can change
// without the other as long as this shape holds. Times are instants; renderers print them in
// Japan time (domain/japan-time.ts). Pure types: no I/O.

import type { DefrostTime } from './defrost';

/** 1 month, 2 week, 3 day, 4 free period (001 §3). */
export type ReportType = 1 | 2 | 3 | 4;

/** 1 PDF, 2 CSV (001 §3). */
export type ReportFormat = 1 | 2;

/** Which rows the data table prints: every N minutes from the period start, or given HH:mm times each day. */
export type ReportInterval = { kind: 'every'; minutes: number } | { kind: 'times'; times: string[] };

/** A sensor's settings during part of the report period (settings over time, DESIGN.md). */
export interface ReportSettingsPeriod {
  from: Date;
  /** Exclusive; null while still in force at the period's end. */
  to: Date | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  defrost: DefrostTime[];
}

/** How a data table row prints (ReportTable.kind): its reading, `--` (missing), ERROR, DEF (inside a defrost range). */
export const ROW_KIND = { value: 0, missing: 1, error: 2, defrost: 3 } as const;

/**
 * One sensor's data table at the chosen interval, as columns: row i is at `at[i]` (ms; every
 * sensor of a report shares the one array), prints as `kind[i]` (a ROW_KIND), and holds
 * `temperature[i]`, the reading at that time rounded the way the graph rounds (domain/format.ts
 * roundTenth), NaN when it has none (missing, an error, a defrost row without a reading). Columns
 * rather than an object per row: a month at 10 minutes is 89,280 rows for 20 sensors, alive
 * through the whole render (docs/decisions/202).
 */
export interface ReportTable {
  length: number;
  at: Float64Array;
  kind: Uint8Array;
  temperature: Float64Array;
}

/** The chart's readings in time order: instants (ms) and raw values, NaN where errors or empty readings break the line. */
export interface ReportPoints {
  length: number;
  at: Float64Array;
  temperature: Float64Array;
}

/** A stretch of time drawn shaded on the chart. */
export interface ReportWindow {
  from: Date;
  to: Date;
}

export interface ReportComment {
  at: Date;
  comment: string;
  userName: string | null;
}

export interface ReportAlert {
  alertId: string;
  /** The alert's Japanese label (domain/alert-codes.ts). */
  label: string;
  startedAt: Date;
  recoveredAt: Date | null;
  stoppedAt: Date | null;
  stoppedBy: string | null;
  stopComment: string | null;
  /** The acknowledgement with its corrective action (decision 237), null while nobody acknowledged. */
  acknowledgedAt: Date | null;
  acknowledgedByName: string | null;
  correctiveAction: string | null;
  acknowledgeNote: string | null;
}

/** min / max / mean of some readings (null when there are none) and how many readings they are. */
export interface ReportSummaryFigures {
  min: number | null;
  max: number | null;
  mean: number | null;
  count: number;
}

/** The summary by the one rule of domain/report-summary.ts: the figures of the readings counted (defrost and alert-stop windows left out). */
export interface ReportSummary extends ReportSummaryFigures {
  /** Minutes a counted reading was outside the limits in force. */
  minutesOutside: number;
  /** The same figures over every reading, when they differ from the counted ones (something was excluded). */
  all: ReportSummaryFigures | null;
  /** The period's 10-minute slots and how many hold a value reading. */
  coverage: { slots: number; withReadings: number };
  alerts: ReportAlert[];
}

export interface ReportSensor {
  equipmentId: number;
  name: string;
  serialNo: string;
  iconKind: number;
  settings: ReportSettingsPeriod[];
  /**
   * The readings for the chart: every reading of a short period, at most first/min/max/last per
   * 1/1000 of a long one (report-rows.ts chartPoints). Empty in a CSV report, which draws no chart
   * (docs/decisions/192).
   */
  points: ReportPoints;
  /** Whether the period holds any reading of the sensor (a report without any says so). */
  hasReadings: boolean;
  /** The table at the chosen interval. */
  table: ReportTable;
  /** Defrost ranges laid out over the period, for shading. */
  defrostWindows: ReportWindow[];
  /** Alert-stop windows over the period, for shading. */
  stopWindows: ReportWindow[];
  /** Present when option1 (comments) is on. */
  comments: ReportComment[] | null;
  /** Present when option2 (summary) is on. */
  summary: ReportSummary | null;
}

export interface ReportDocument {
  /** From the store, the period and the kind (report-title.ts), whatever the setting is called. */
  title: string;
  /** Stable per report run: the store's number and the report's history number. */
  documentNumber: string;
  /** The setting's name (随時レポート for a one-off report). */
  settingName: string;
  /** Whether the raw values follow the summary and the charts as an appendix. */
  appendix: boolean;
  fileName: string;
  reportType: ReportType;
  format: ReportFormat;
  store: { storeId: string; storeNo: string; storeName: string };
  /** From inclusive to inclusive (the period's last row, such as 23:50 of the last day). */
  period: { from: Date; to: Date };
  createdAt: Date;
  createdBy: string | null;
  interval: ReportInterval;
  sensors: ReportSensor[];
  /** Set when the period (or its start) is beyond the readings' retention (domain/retention.ts); whole: nothing of it is left. */
  retention?: { whole: boolean; text: string } | null;
}
