import type { ReportDocument, ReportFormat } from '~/domain/report-document';
import { CSV_CONTENT_TYPE, renderReportCsv } from './csv.server';
import { renderReportPdf } from './pdf.server';

// The renderers by output format. The worker claims only jobs of a format listed here, so a
// format whose renderer is not in this build waits (作成中) instead of failing.

export const RENDERERS: Partial<Record<ReportFormat, { contentType: string; render: (doc: ReportDocument) => Promise<Buffer> }>> = {
  1: { contentType: 'application/pdf', render: renderReportPdf },
  2: { contentType: CSV_CONTENT_TYPE, render: renderReportCsv },
};

export const RENDERED_FORMATS = Object.keys(RENDERERS).map(Number) as ReportFormat[];

export async function renderReport(doc: ReportDocument): Promise<{ contentType: string; content: Buffer }> {
  const renderer = RENDERERS[doc.format];
  if (!renderer) throw new Error(`no renderer for output_format ${doc.format}`);
  return { contentType: renderer.contentType, content: await renderer.render(doc) };
}
