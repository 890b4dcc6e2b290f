// The one pdfmake instance of the process, with the Japanese font that `npm ci` installs
// (@expo-google-fonts/noto-sans-jp: Noto Sans JP as static TrueType files, SIL OFL 1.1; see
// docs/decisions/145-report-pdf-font.md). Never a system font: a server without fonts renders the same.
// pdfkit embeds only the glyphs a document uses, so a report stays small.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfMake from 'pdfmake';

const require = createRequire(import.meta.url);

export const PDF_FONT = 'NotoSansJP';
/** The report's line height factor (pdfmake's defaultStyle lineHeight). */
export const LINE_HEIGHT = 1.1;
/** The font's line per point of size (ascender 1160 - descender -288, in 1000ths), as pdfkit measures it. */
export const PDF_FONT_LINE = 1.448;

/** The height pdfmake gives one line of text of `size` points at the report's line height. */
export const lineHeightOf = (size: number) => size * PDF_FONT_LINE * LINE_HEIGHT;

const fontDir = path.dirname(require.resolve('@expo-google-fonts/noto-sans-jp/package.json'));
const FONT_FILES = {
  normal: path.join(fontDir, '400Regular', 'NotoSansJP_400Regular.ttf'),
  bold: path.join(fontDir, '700Bold', 'NotoSansJP_700Bold.ttf'),
};

let instance: typeof PdfMake | undefined;

/** pdfmake's in-memory file system (in the package, not in its types). */
interface VirtualFs {
  writeFileSync(name: string, content: Buffer): void;
}

/**
 * pdfmake with the report font, no URL access and no file access. The font files (5.4 MB each)
 * are read once into pdfmake's in-memory file system: given as paths, pdfkit read both again for
 * every document (docs/decisions/193-report-pdf-cpu.md).
 */
export function pdfMake(): typeof PdfMake {
  if (instance) return instance;
  const pdfmake = require('pdfmake') as typeof PdfMake & { virtualfs: VirtualFs };
  const font = (name: keyof typeof FONT_FILES) => `${PDF_FONT}-${name}.ttf`;
  for (const name of ['normal', 'bold'] as const) pdfmake.virtualfs.writeFileSync(font(name), readFileSync(FONT_FILES[name]));
  pdfmake.setFonts({ [PDF_FONT]: { normal: font('normal'), bold: font('bold'), italics: font('normal'), bolditalics: font('bold') } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  instance = pdfmake;
  return pdfmake;
}
