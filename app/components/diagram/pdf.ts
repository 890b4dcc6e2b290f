// Page 1 of a PDF diagram drawn to a PNG (000 §4), in the browser only. pdf.js is loaded lazily,
// the first time a PDF diagram is shown: its prebuilt module, worker and data files are served
// as shipped by app/routes/resources.pdfjs.$.ts from the installed pdfjs-dist. It is not run
// through the Remix bundler, whose lowering of pdf.js's class static blocks breaks PDFWorker
// ("Cannot set properties of undefined (setting '_isSameOrigin')").

type PdfJs = typeof import('pdfjs-dist');

const PDFJS_BASE = '/resources/pdfjs/';
const PDFJS_MODULE: string = `${PDFJS_BASE}build/pdf.min.mjs`;

let pdfjsModule: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  // A variable specifier: the browser imports the file at run time, the bundler leaves it alone.
  pdfjsModule ??= (import(/* webpackIgnore: true */ PDFJS_MODULE) as Promise<PdfJs>).catch((error: unknown) => {
    pdfjsModule = undefined;
    throw error;
  });
  return pdfjsModule;
}
/** The drawn page is this wide (pixels) so that it stays sharp two zoom steps in. */
const TARGET_WIDTH = 2400;
const MAX_SCALE = 6;

/** Renders page 1 of the PDF at `url` and returns it as a PNG blob. */
export async function renderPdfFirstPage(url: string, signal?: AbortSignal): Promise<Blob> {
  const [pdfjs, response] = await Promise.all([loadPdfJs(), fetch(url, { credentials: 'same-origin', signal })]);
  if (!response.ok) throw new Error(`the diagram could not be loaded (${response.status})`);
  pdfjs.GlobalWorkerOptions.workerSrc = `${PDFJS_BASE}build/pdf.worker.min.mjs`;
  const data = new Uint8Array(await response.arrayBuffer());
  const task = pdfjs.getDocument({
    data,
    isEvalSupported: false,
    cMapUrl: `${PDFJS_BASE}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_BASE}standard_fonts/`,
    wasmUrl: `${PDFJS_BASE}wasm/`,
    iccUrl: `${PDFJS_BASE}iccs/`,
  });
  signal?.addEventListener('abort', () => void task.destroy());
  const document_ = await task.promise;
  try {
    const page = await document_.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(MAX_SCALE, TARGET_WIDTH / base.width) });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    await page.render({ canvas, viewport }).promise;
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the page could not be drawn'))), 'image/png'));
  } finally {
    await document_.destroy();
  }
}
