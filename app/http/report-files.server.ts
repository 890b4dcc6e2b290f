import type { Db } from '~/db/db.server';
import { downloadName } from '~/domain/report-form';
import { readReportChunk, type ReportFileInfo } from '~/models/report-history.server';
import { apiError } from './access.server';

// A produced report as a download: streamed from the database in chunks (a month PDF of many
// sensors never sits whole in the web process), its name in Content-Disposition (001 §7).

const CHUNK = 256 * 1024;

export function reportFileResponse(db: Db, file: ReportFileInfo): Response {
  if (file.state !== 'done') return apiError(409, 'invalid_state', file.state === 'pending' ? 'The report is being made (作成中).' : 'The report could not be made.');
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= file.size) {
        controller.close();
        return;
      }
      const chunk = await readReportChunk(db, file.storeId, file.historyNo, offset, CHUNK);
      offset += CHUNK;
      if (chunk.length === 0) controller.close();
      else controller.enqueue(new Uint8Array(chunk));
    },
  });
  const name = downloadName(file.fileName, file.outputFormat);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return new Response(stream, {
    headers: {
      'Content-Type': file.contentType ?? 'application/octet-stream',
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
}
