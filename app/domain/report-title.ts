import { formatDate, toCompactDate } from './japan-time';
import type { ReportType } from './report-document';
import { REPORT_TYPE_DOCUMENT_LABELS } from './report-form';

// A report document's names (issue 29): its title says the store, the period and the kind; its
// number is stable per report run. The download keeps the file name the user gave (001 §3). Pure.

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

/** OR-0001-00000042: the store's number and the report's history number; a render without a history row (a preview, a bench) gets its creation time instead. */
export function documentNumber(storeNo: string, historyNo: number | null, createdAt: Date): string {
  return `OR-${storeNo}-${historyNo === null ? toCompactDate(createdAt) + 'P' : String(historyNo).padStart(8, '0')}`;
}
