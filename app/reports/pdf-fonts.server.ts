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

/** What of pdfkit's embedded font (a pdfkit internal) the shared shaping touches: its per-document cache of shaped words, and the font file's identity. */
interface ShapingFont {
  layoutCache?: Record<string, unknown>;
  font: { postscriptName: string; head: { checkSumAdjustment: number } };
}

/** pdfmake's pdfkit document class (not in its types): provideFont gives a document its font of a family and style. */
interface PdfMakeDocumentClass {
  prototype: { provideFont(this: unknown, family: string, bold: boolean, italics: boolean): ShapingFont };
}

/** Distinct words kept shaped per font file; past it a document starts a new cache (comments and names are free text). */
const SHAPED_WORDS = 20_000;
const shapedWords = new Map<string, Record<string, unknown>>();
const sharing = new WeakSet<ShapingFont>();

/**
 * Every document's font shares one cache of shaped words per font file. pdfkit keeps fontkit's
 * shaping of each word (glyphs and positions, scaled to 1000 units) in a cache of the document's
 * font, so every report shaped the same words again: a tenth of a month PDF's CPU. Nothing in it
 * depends on the document: glyph ids, advances and code points of the same font file; the subset
 * ids and widths that are per document stay in the document's font (pdfkit's encode).
 */
function shareShaping(): void {
  const documentClass = (require('pdfmake/js/PDFDocument') as { default: PdfMakeDocumentClass }).default;
  const provideFont = documentClass.prototype.provideFont;
  documentClass.prototype.provideFont = function (family, bold, italics) {
    const font = provideFont.call(this, family, bold, italics);
    // pdfmake asks for the font for every piece of text: only a document's new font is looked at.
    if (!font.layoutCache || sharing.has(font)) return font;
    sharing.add(font);
    const key = `${font.font.postscriptName} ${font.font.head.checkSumAdjustment}`;
    let shared = shapedWords.get(key);
    if (!shared || Object.keys(shared).length > SHAPED_WORDS) {
      shared = font.layoutCache;
      shapedWords.set(key, shared);
    }
    font.layoutCache = shared;
    return font;
  };
}

/** pdfmake's in-memory file system (in the package, not in its types). */
interface VirtualFs {
  writeFileSync(name: string, content: Buffer): void;
}

/**
 * pdfmake with the report font, no URL access and no file access. The font files (5.4 MB each)
 * are read once into pdfmake's in-memory file system: given as paths, pdfkit read both again for
 * every document (docs/decisions/193-report-pdf-cpu.md). Shaped words are shared across documents
 * (docs/decisions/196-report-pdf-night.md).
 */
export function pdfMake(): typeof PdfMake {
  if (instance) return instance;
  const pdfmake = require('pdfmake') as typeof PdfMake & { virtualfs: VirtualFs };
  const font = (name: keyof typeof FONT_FILES) => `${PDF_FONT}-${name}.ttf`;
  for (const name of ['normal', 'bold'] as const) pdfmake.virtualfs.writeFileSync(font(name), readFileSync(FONT_FILES[name]));
  pdfmake.setFonts({ [PDF_FONT]: { normal: font('normal'), bold: font('bold'), italics: font('normal'), bolditalics: font('bold') } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  shareShaping();
  instance = pdfmake;
  return pdfmake;
}
