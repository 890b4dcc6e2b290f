// The monthly PDF of the HACCP daily record (issue 14 item 6): first the month at a glance as
// the paper forms of the hygiene-plan guides keep it (sensors down, days across: ○ pass,
// × excursion or alert, － no record; the sign-off row below), then the days with excursions or
// alerts and their corrective actions, then the sign-offs. Same font and header/footer as the
// report PDF.
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { type HaccpResult, type HaccpSensorDay, type HaccpSignoff, HACCP_RESULT_LABELS, haccpSensorView } from '~/domain/haccp';
import { formatDateTime } from '~/domain/japan-time';
import { pageFooterText } from './layout';
import { PDF_FONT, pdfMake } from './pdf-fonts.server';

export interface HaccpMonthDocument {
  store: { storeNo: string; storeName: string };
  month: string;
  createdAt: Date;
  createdBy: string;
  days: { day: string; sensors: readonly HaccpSensorDay[]; signoffs: readonly HaccpSignoff[]; needsSignoff: boolean }[];
  /** The month (or its start) beyond the readings' retention (domain/retention.ts): its days show no record. */
  retention?: { whole: boolean; text: string } | null;
}

const MARKS: Record<HaccpResult, string> = { pass: '○', fail: '×', no_data: '－' };

export function haccpPdfTitle(month: string): string {
  return `HACCP温度管理記録 ${month.slice(0, 4)}年${Number(month.slice(4, 6))}月`;
}

function monthGrid(doc: HaccpMonthDocument): Content {
  const days = doc.days;
  const sensors = days[0]?.sensors ?? [];
  const header: Content[] = [{ text: 'センサー', style: 'th' }, ...days.map((d): Content => ({ text: String(Number(d.day.slice(6))), style: 'th', alignment: 'center' }))];
  const body: Content[][] = [header];
  sensors.forEach((sensor, index) => {
    body.push([
      { text: sensor.name, style: 'cell', noWrap: true },
      ...days.map((d): Content => {
        const result = d.sensors[index]?.result ?? 'no_data';
        return { text: MARKS[result], style: 'cell', alignment: 'center', color: result === 'fail' ? '#b91c1c' : result === 'no_data' ? '#6b7280' : '#047857' };
      }),
    ]);
  });
  body.push([
    { text: '確認者署名', style: 'th' },
    ...days.map((d): Content => ({ text: d.signoffs.length === 0 ? '' : d.needsSignoff ? '要' : '済', style: 'cell', alignment: 'center', color: d.needsSignoff ? '#b45309' : '#047857' })),
  ]);
  return {
    table: { headerRows: 1, widths: ['auto', ...days.map(() => '*' as const)], body },
    layout: { hLineWidth: () => 0.4, vLineWidth: () => 0.4, hLineColor: () => '#d1d5db', vLineColor: () => '#d1d5db', paddingLeft: () => 2, paddingRight: () => 2 },
  };
}

function dayDetails(day: HaccpMonthDocument['days'][number]): Content[] {
  const failing = day.sensors.filter((s) => s.result === 'fail').map(haccpSensorView);
  if (failing.length === 0) return [];
  const body: Content[][] = [[{ text: 'センサー', style: 'th' }, { text: '上下限', style: 'th' }, { text: '逸脱・アラート', style: 'th' }, { text: '改善措置', style: 'th' }]];
  for (const s of failing) {
    const events = [...s.excursions.map((e) => `${e.kind} ${e.time}（最大 ${e.peak}）`), ...s.alerts.map((a) => `${a.label} ${a.time}`)];
    const actions = [
      ...s.excursions.flatMap((e) => e.actions.map((a) => `${a.time} ${a.userName}: ${a.comment}`)),
      ...s.alerts.flatMap((a) => (a.comment ? [`停止 ${a.stop}: ${a.comment}`] : [])),
    ];
    body.push([
      { text: s.name, style: 'cell' },
      { text: s.limits, style: 'cell' },
      { text: events.join('\n'), style: 'cell' },
      { text: actions.length ? [...new Set(actions)].join('\n') : '記録なし', style: 'cell', color: actions.length ? undefined : '#b45309' },
    ]);
  }
  const d = day.day;
  return [
    { text: `${d.slice(0, 4)}/${d.slice(4, 6)}/${d.slice(6)}`, style: 'h3' },
    { table: { headerRows: 1, widths: [90, 80, '*', '*'], body, dontBreakRows: true }, layout: 'lightHorizontalLines', margin: [0, 0, 0, 6] },
  ];
}

function signoffList(doc: HaccpMonthDocument): Content {
  const body: Content[][] = [[{ text: '日付', style: 'th' }, { text: '確認者', style: 'th' }, { text: '署名日時', style: 'th' }, { text: '備考', style: 'th' }]];
  for (const day of doc.days) {
    for (const s of day.signoffs) body.push([{ text: `${day.day.slice(4, 6)}/${day.day.slice(6)}`, style: 'cell' }, { text: s.userName, style: 'cell' }, { text: formatDateTime(s.signedAt), style: 'cell' }, { text: s.note ?? '', style: 'cell' }]);
  }
  if (body.length === 1) return { text: '署名された日はありません', style: 'note' };
  return { table: { headerRows: 1, widths: [40, 110, 90, '*'], body }, layout: 'lightHorizontalLines' };
}

export function haccpDefinition(doc: HaccpMonthDocument): TDocumentDefinitions {
  const title = haccpPdfTitle(doc.month);
  const header = `${doc.store.storeNo} ${doc.store.storeName}\u3000${title}`;
  const details = doc.days.flatMap(dayDetails);
  return {
    info: { title, creator: 'On-Reco' },
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [30, 40, 30, 34],
    header: () => ({ text: header, fontSize: 7, color: '#374151', margin: [30, 16, 30, 0] }),
    footer: (page: number, pages: number) => ({ text: pageFooterText(page, pages), fontSize: 7, alignment: 'center', color: '#374151', margin: [0, 12, 0, 0] }),
    content: [
      { text: title, style: 'h1' },
      { text: `${doc.store.storeNo} ${doc.store.storeName}\u3000作成: ${formatDateTime(doc.createdAt)} ${doc.createdBy}`, style: 'note' },
      doc.retention ? { text: doc.retention.text, style: 'retention' } : '',
      { text: `判定: ${MARKS.pass} ${HACCP_RESULT_LABELS.pass}\u3000${MARKS.fail} ${HACCP_RESULT_LABELS.fail}（アラートまたは上下限外。霜取りとアラート停止の時間帯を除く）\u3000${MARKS.no_data} ${HACCP_RESULT_LABELS.no_data}\u3000署名: 済 確認済み\u3000要 署名後に新しい逸脱`, style: 'note', margin: [0, 0, 0, 6] },
      doc.days.length === 0 ? { text: 'この月の記録はまだありません', style: 'note' } : (doc.days[0].sensors.length === 0 ? { text: 'この店舗にはセンサーがありません', style: 'note' } : monthGrid(doc)),
      { text: '逸脱と改善措置', style: 'h2', pageBreak: 'before' },
      ...(details.length ? details : [{ text: 'この月の逸脱はありません', style: 'note' } as Content]),
      { text: '確認者の署名', style: 'h2', margin: [0, 10, 0, 4] },
      signoffList(doc),
    ],
    defaultStyle: { font: PDF_FONT, fontSize: 8 },
    styles: {
      h1: { fontSize: 15, bold: true, margin: [0, 0, 0, 4] },
      h2: { fontSize: 12, bold: true, margin: [0, 0, 0, 4] },
      h3: { fontSize: 9, bold: true, margin: [0, 6, 0, 2] },
      th: { fontSize: 7, bold: true, color: '#374151' },
      cell: { fontSize: 7 },
      note: { fontSize: 8, color: '#374151', margin: [0, 0, 0, 2] },
      retention: { fontSize: 10, bold: true, color: '#b91c1c', margin: [0, 2, 0, 4] },
    },
  };
}

export async function renderHaccpMonthPdf(doc: HaccpMonthDocument): Promise<Buffer> {
  return pdfMake().createPdf(haccpDefinition(doc)).getBuffer();
}
