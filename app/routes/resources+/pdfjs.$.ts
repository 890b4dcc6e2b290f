import type { LoaderFunctionArgs } from '@remix-run/node';
import { packageFileResponse, packageRoot } from '~/http/package-files.server';

// pdf.js as shipped (the module and its worker) and the data it fetches (character maps for
// Japanese PDFs, standard fonts, ICC profiles, decoders), served from the installed pdfjs-dist.
// Only these file names are served; the diagram pages import the module lazily, when a PDF
// diagram is shown.
const ROOT = packageRoot('pdfjs-dist');
const ALLOWED = /^(build\/pdf(?:\.worker)?\.min\.mjs|cmaps\/[A-Za-z0-9._-]+\.bcmap|standard_fonts\/[A-Za-z0-9._-]+\.(?:pfb|ttf)|wasm\/[A-Za-z0-9._-]+\.(?:wasm|js)|iccs\/[A-Za-z0-9._-]+\.icc)$/;

export function loader({ params }: LoaderFunctionArgs) {
  return packageFileResponse(ROOT, params['*'] ?? '', ALLOWED);
}
