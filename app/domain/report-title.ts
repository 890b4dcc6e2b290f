import { formatDate, toCompactDate } from './japan-time';
import type { ReportType } from './report-document';
import { REPORT_TYPE_DOCUMENT_LABELS } from './report-form';

// A report document's names (issue 29): its title and file name say the store, the period and the
// kind; its number is stable per report run. Pure.

export const REPORT_DOCUMENT_NAME = '温度管理記録';

interface Named {
  reportType: ReportType;
  store: { storeNo: string; storeName: string };
  period: { from: Date; to: Date };
}

const days = (period: { from: Date; to: Date }) => (formatDate(period.from) === formatDate(period.to) ? formatDate(period.from) : `${formatDate(period.from)}〜${formatDate(period.to)}`);

/** 温度管理記録（月次） 0001 新宿店 2026/10/01〜2026/10/31 */
export function reportTitle(doc: Named): string {
  return `${REPORT_DOCUMENT_NAME}（${REPORT_TYPE_DOCUMENT_LABELS[doc.reportType]}） ${doc.store.storeNo} ${doc.store.storeName} ${days(doc.period)}`;
}

/** 温度管理記録_月次_0001_新宿店_20261001-20261031 (characters a file system refuses replaced). */
export function reportFileBase(doc: Named): string {
  const from = toCompactDate(doc.period.from);
  const to = toCompactDate(doc.period.to);
  const name = `${REPORT_DOCUMENT_NAME}_${REPORT_TYPE_DOCUMENT_LABELS[doc.reportType]}_${doc.store.storeNo}_${doc.store.storeName}_${from === to ? from : `${from}-${to}`}`;
  return name.replace(/[\\/:*?"<>|\s]+/g, '_');
}

/** OR-0001-00000042: the store's number and the report's history number; a render without a history row (a preview, a bench) gets its creation time instead. */
export function documentNumber(storeNo: string, historyNo: number | null, createdAt: Date): string {
  return `OR-${storeNo}-${historyNo === null ? toCompactDate(createdAt) + 'P' : String(historyNo).padStart(8, '0')}`;
}
