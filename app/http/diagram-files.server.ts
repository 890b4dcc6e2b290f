import { MaxPartSizeExceededError, type UploadHandler, unstable_parseMultipartFormData } from '@remix-run/node';
import { classifyDiagramFile, DIAGRAM_MESSAGES, diagramNameOf, downloadNameOf, MAX_DIAGRAM_BYTES, MAX_DIAGRAM_FILES, MAX_DIAGRAM_UPLOAD_BYTES } from '~/domain/diagram';
import type { DiagramFile, UploadedDiagram } from '~/models/diagrams.server';
import { discardBody } from './api.server';

// Diagram files over HTTP: reading an upload (multipart store_id + item_images[]) with its
// limits, typed by content, and serving a stored file so that it can never run script.

/** The multipart field of the files (000 §7); `item_images` without brackets is accepted too. */
export const FILE_FIELDS = new Set(['item_images[]', 'item_images']);
const MAX_TEXT_FIELD_BYTES = 4096;
/** Anything this long cannot be a valid upload: refused before it is read. */

export type UploadFailure = {
  ok: false;
  status: 400 | 413;
  reason: 'too_large' | 'too_many' | 'no_file' | 'unsupported' | 'invalid_svg' | 'unsafe_svg' | 'malformed';
  detail: string;
  fileName?: string;
  /** The text fields read before the failure (form fields come before the files). */
  fields: Record<string, string>;
  /** The body was left part-read: the answer must close the connection (closeIfUnread). */
  unread?: true;
};

export type UploadResult = { ok: true; fields: Record<string, string>; files: UploadedDiagram[] } | UploadFailure;

class TooManyFiles extends Error {}

/** Reads a diagram upload: at most 5 files of at most 10 MB each, each typed by its bytes. */
export async function readDiagramUpload(request: Request): Promise<UploadResult> {
  const fields: Record<string, string> = {};
  const length = Number(request.headers.get('Content-Length') ?? '0');
  if (length > MAX_DIAGRAM_UPLOAD_BYTES) return { ok: false, status: 413, reason: 'too_large', detail: `the upload is larger than ${MAX_DIAGRAM_FILES} files of ${MAX_DIAGRAM_BYTES} bytes`, fields };
  if (!/^multipart\/form-data\b/i.test(request.headers.get('Content-Type') ?? '')) {
    // Read what was sent (bounded by the length checked above) before answering, so that a
    // kept-alive connection goes on to serve the client's next request.
    await discardBody(request, MAX_DIAGRAM_UPLOAD_BYTES);
    return { ok: false, status: 400, reason: 'malformed', detail: 'the body is not multipart/form-data', fields };
  }
  let fileCount = 0;
  const handler: UploadHandler = async ({ name, filename, data }) => {
    if (typeof filename === 'string') {
      // An empty file input still sends a part with no name and no bytes.
      if (filename === '' || !FILE_FIELDS.has(name)) {
        for await (const _chunk of data) {
          // drain
        }
        return undefined;
      }
      fileCount += 1;
      if (fileCount > MAX_DIAGRAM_FILES) throw new TooManyFiles();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.byteLength;
        if (size > MAX_DIAGRAM_BYTES) throw new MaxPartSizeExceededError(filename, MAX_DIAGRAM_BYTES);
        chunks.push(chunk);
      }
      return new File(chunks as BlobPart[], filename);
    }
    let text = '';
    let size = 0;
    const decoder = new TextDecoder();
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > MAX_TEXT_FIELD_BYTES) throw new MaxPartSizeExceededError(name, MAX_TEXT_FIELD_BYTES);
      text += decoder.decode(chunk, { stream: true });
    }
    text += decoder.decode();
    fields[name] ??= text;
    return text;
  };
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(request, handler);
  } catch (error) {
    // The parser stopped inside the body and holds its stream: the rest cannot be drained here.
    if (error instanceof MaxPartSizeExceededError) return { ok: false, status: 413, reason: 'too_large', detail: `${error.field} is larger than ${error.maxBytes} bytes`, fileName: error.field, fields, unread: true };
    if (error instanceof TooManyFiles) return { ok: false, status: 400, reason: 'too_many', detail: `at most ${MAX_DIAGRAM_FILES} files per upload`, fields, unread: true };
    return { ok: false, status: 400, reason: 'malformed', detail: 'the body is not multipart/form-data', fields, unread: true };
  }
  const files: UploadedDiagram[] = [];
  for (const value of form.values()) {
    if (typeof value === 'string') continue;
    const bytes = new Uint8Array(await value.arrayBuffer());
    const verdict = classifyDiagramFile(bytes);
    if (!verdict.ok) return { ok: false, status: 400, reason: verdict.reason, detail: `${value.name}: ${verdict.detail}`, fileName: value.name, fields };
    files.push({ name: diagramNameOf(value.name), contentType: verdict.contentType, bytes });
  }
  if (files.length === 0) return { ok: false, status: 400, reason: 'no_file', detail: 'choose a file in item_images[]', fields };
  return { ok: true, fields, files };
}

/**
 * The answer to a refused upload, with `Connection: close` when the body was left part-read: the
 * unread bytes would otherwise be taken for the next request on a kept-alive connection (and
 * hold it until a timeout resets it).
 */
export function closeIfUnread<R extends Response>(failure: UploadFailure, answer: R): R {
  if (failure.unread) answer.headers.set('Connection', 'close');
  return answer;
}

/** The console's message for a refused upload. */
export function uploadFailureMessage(failure: UploadFailure): string {
  switch (failure.reason) {
    case 'too_large':
      return DIAGRAM_MESSAGES.tooLarge;
    case 'too_many':
      return DIAGRAM_MESSAGES.tooMany;
    case 'no_file':
      return DIAGRAM_MESSAGES.noFile;
    case 'unsafe_svg':
      return DIAGRAM_MESSAGES.unsafeSvg;
    case 'invalid_svg':
      return DIAGRAM_MESSAGES.invalidSvg;
    case 'unsupported':
      return DIAGRAM_MESSAGES.unsupported;
    default:
      return DIAGRAM_MESSAGES.uploadFailed;
  }
}

/**
 * A stored diagram as a response: its content type, `nosniff`, and a CSP that forbids
 * everything but inline styles and sandboxes the document, so an SVG opened on its own cannot
 * run script or load anything. Pages show SVGs through <img> only.
 */
export function diagramFileResponse(file: DiagramFile, options: { download?: boolean } = {}): Response {
  const name = downloadNameOf(file.diagramName, file.contentType);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return new Response(new Uint8Array(file.content), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.content.byteLength),
      'Content-Disposition': `${options.download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
      // A diagram's bytes never change under its id; the browser may keep it for a while.
      'Cache-Control': 'private, max-age=3600',
    },
  });
}
