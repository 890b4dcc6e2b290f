// The one pdfmake instance of the process, with the Japanese font that `npm ci` installs
// (@expo-google-fonts/noto-sans-jp: Noto Sans JP as static TrueType files, SIL OFL 1.1; see
// docs/decisions/145-report-pdf-font.md). Never a system font: a server without fonts renders the same.
// pdfkit embeds only the glyphs a document uses, so a report stays small.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfMake from 'pdfmake';

const require = createRequire(import.meta.url);

export const PDF_FONT = 'NotoSansJP';

const fontDir = path.dirname(require.resolve('@expo-google-fonts/noto-sans-jp/package.json'));
const FONT_FILES = {
  normal: path.join(fontDir, '400Regular', 'NotoSansJP_400Regular.ttf'),
  bold: path.join(fontDir, '700Bold', 'NotoSansJP_700Bold.ttf'),
};

let instance: typeof PdfMake | undefined;

/** pdfmake with the report font, no URL access and no file access besides the font files. */
export function pdfMake(): typeof PdfMake {
  if (instance) return instance;
  const pdfmake = require('pdfmake') as typeof PdfMake;
  pdfmake.setFonts({ [PDF_FONT]: { normal: FONT_FILES.normal, bold: FONT_FILES.bold, italics: FONT_FILES.normal, bolditalics: FONT_FILES.bold } });
  pdfmake.setUrlAccessPolicy(() => false);
  const allowed = new Set(Object.values(FONT_FILES));
  pdfmake.setLocalAccessPolicy((file) => allowed.has(path.resolve(file)));
  instance = pdfmake;
  return pdfmake;
}
