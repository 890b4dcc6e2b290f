// Text and rules written straight into the content streams of a pdfkit document after pdfmake has
// laid it out (docs/decisions/148-report-speed.md, 193-report-pdf-cpu.md): the pages' header and
// footer lines, the data table blocks and the charts are at fixed places, so measuring, styling and
// splitting them into one text object per word, as pdfmake does, is all cost and no layout. What is written
// is what pdfkit's own text() writes for a plain run: glyph ids of the same embedded font (so the
// subset keeps them), the same kerning adjustments.
import { deflateSync } from 'node:zlib';
import type { Content } from 'pdfmake/interfaces';
import { lineWords } from './layout';

/** The part of pdfkit's document (as pdfmake makes it, with bufferPages) that is drawn into here. */
export interface PdfKitLike {
  provideFont(family: string, bold: boolean, italics: boolean): PdfKitFont;
  bufferedPageRange(): { start: number; count: number };
  switchToPage(index: number): void;
  page: { height: number; fonts: Record<string, unknown>; xobjects: Record<string, unknown>; ext_gstates: Record<string, unknown>; content: PdfKitStream };
  ref(data: Record<string, unknown>): PdfKitStream;
  addContent(data: string): void;
  end(): void;
  on(event: 'data', listener: (chunk: Buffer) => void): void;
  on(event: 'end', listener: () => void): void;
}

/** A pdfkit object with a stream (its PDFReference): the chunks written so far, kept until the document's end, and whether pdfkit deflates them then. */
export interface PdfKitStream {
  buffer: Buffer[];
  compress: boolean;
  data: Record<string, unknown>;
  write(chunk: string): void;
  end(chunk?: string): void;
}

interface PdfKitFont {
  id: string;
  ascender: number;
  ref(): unknown;
  encode(text: string): [string[], { xAdvance: number; advanceWidth: number }[]];
}

/** One string as a text-showing operator (Tj, or TJ when it has kerning) and its advance in thousandths of the font size. */
export interface GlyphRun {
  ops: string;
  advance: number;
}

/** A piece of text: its glyphs as the bytes of a literal string (escaped), each followed by its kerning adjustment (0: none), and its advance. */
interface EncodedWord {
  parts: { bytes: string; kern: number }[];
  advance: number;
}

/** A font of the document with each distinct string encoded once. */
export class RunFont {
  readonly id: string;
  readonly ascender: number;
  private readonly runs = new Map<string, GlyphRun>();
  private readonly words = new Map<string, EncodedWord>();

  constructor(private readonly font: PdfKitFont) {
    this.id = font.id;
    this.ascender = font.ascender;
  }

  /** From a line's top to its baseline, as pdfkit places text. */
  baseline(size: number): number {
    return (this.ascender / 1000) * size;
  }

  width(text: string, size: number): number {
    return (this.run(text).advance * size) / 1000;
  }

  run(text: string): GlyphRun {
    let found = this.runs.get(text);
    if (!found) {
      found = this.encode(text);
      this.runs.set(text, found);
    }
    return found;
  }

  /** Registers the font in a page's resources (the page being drawn into). */
  useOn(page: PdfKitLike['page']): void {
    if (page.fonts[this.id] == null) page.fonts[this.id] = this.font.ref();
  }

  resources(): Record<string, unknown> {
    return { Font: { [this.id]: this.font.ref() } };
  }

  /** Each of pdfmake's pieces of the text encoded alone (once per document), as pdfmake writes them: kerning inside a piece, none between. */
  private encode(text: string): GlyphRun {
    const words = lineWords(text).map((word) => this.word(word));
    const parts = words.flatMap((word) => word.parts);
    const advance = words.reduce((sum, word) => sum + word.advance, 0);
    if (parts.every((part) => part.kern === 0)) return { ops: `(${parts.map((part) => part.bytes).join('')}) Tj`, advance };
    return { ops: `[${parts.map((part) => (part.kern === 0 ? `(${part.bytes})` : `(${part.bytes}) ${(-part.kern).toFixed(2)}`)).join(' ')}] TJ`, advance };
  }

  private word(word: string): EncodedWord {
    let found = this.words.get(word);
    if (found) return found;
    const [encoded, positions] = this.font.encode(word);
    const parts: EncodedWord['parts'] = [];
    let advance = 0;
    let last = 0;
    for (let i = 0; i < positions.length; i++) {
      advance += positions[i].xAdvance;
      const kern = positions[i].xAdvance - positions[i].advanceWidth;
      if (kern !== 0 || i === positions.length - 1) {
        parts.push({ bytes: literalBytes(encoded.slice(last, i + 1).join('')), kern });
        last = i + 1;
      }
    }
    found = { parts, advance };
    this.words.set(word, found);
    return found;
  }
}

/** Bytes a literal string escapes: its delimiters, the escape itself, and line ends (a reader would turn CR or CR LF into LF). */
const ESCAPED: Record<number, string> = { 0x28: '\\(', 0x29: '\\)', 0x5c: '\\\\', 0x0d: '\\r', 0x0a: '\\n' };

/**
 * Glyph ids (2 bytes each, as hex) as the inside of a literal string operand: half the bytes of
 * pdfkit's hex strings, so less to build and to deflate (the table values are most of a report's
 * content); the same glyphs. Escaped byte by byte, so pieces join as they are. Written out as
 * latin1, as pdfkit writes every content chunk.
 */
function literalBytes(hex: string): string {
  let out = '';
  for (let i = 0; i < hex.length; i += 2) {
    const byte = parseInt(hex.slice(i, i + 2), 16);
    out += ESCAPED[byte] ?? String.fromCharCode(byte);
  }
  return out;
}

/** A box pdfmake lays out for something drawn after its layout; pdfmake records where it landed. */
export interface Placeholder {
  positions?: { pageNumber: number; left: number; top: number }[];
}

/**
 * A placeholder `height` tall with the node's other properties (margin, pageBreak): a canvas with
 * one invisible line at its bottom (a canvas without vectors records no position).
 */
export function placeholder(height: number, node: { margin?: number[]; pageBreak?: 'before' }): Placeholder & Content {
  return { canvas: [{ type: 'line', x1: 0, y1: height, x2: 0, y2: height, lineWidth: 0, lineColor: '#ffffff' }], ...node } as Placeholder & Content;
}

/** Where a placeholder landed: its page (from 0) and its top-left corner from the page's top-left. */
export function placeOf(box: Placeholder, what: string): { page: number; left: number; top: number } {
  const at = box.positions?.[0];
  if (!at) throw new Error(`report ${what} was not laid out`);
  return { page: at.pageNumber - 1, left: at.left, top: at.top };
}

/** A fill or stroke colour operator from '#rrggbb'. */
export function colorOps(hex: string, op: 'rg' | 'RG'): string {
  const channel = (i: number) => (parseInt(hex.slice(i, i + 2), 16) / 255).toFixed(4);
  return `${channel(1)} ${channel(3)} ${channel(5)} ${op}`;
}

/** A coordinate as an operand: to the thousandth of a point, as pdfmake's texts are placed. */
export const num = (n: number) => String(Math.round(n * 1000) / 1000);

/** A positioned text operator: `x` and `y` in the coordinates of the text object. */
export const textAt = (x: number, y: number, run: GlyphRun) => `1 0 0 1 ${num(x)} ${num(y)} Tm ${run.ops}`;

/**
 * Text lines inside one text object (BT … ET) with the shortest moves: T* to the next line at the
 * same x (the leading), Td otherwise. Positions are kept in thousandths of a point so that the
 * relative moves add up exactly to where textAt would have put them.
 */
export class TextLines {
  private x = 0;
  private y = 0;
  private readonly step: number;

  constructor(private readonly leading: number) {
    this.step = Math.round(leading * 1000);
  }

  /** Sets the leading: the first operator inside BT. */
  begin(): string {
    return `${this.leading} TL`;
  }

  show(x: number, y: number, run: GlyphRun): string {
    const tx = Math.round(x * 1000);
    const ty = Math.round(y * 1000);
    const move = tx === this.x && this.y - ty === this.step ? 'T*' : `${(tx - this.x) / 1000} ${(ty - this.y) / 1000} Td`;
    this.x = tx;
    this.y = ty;
    return `${move} ${run.ops}`;
  }
}

/** A graphics state parameter dictionary (opacity) as a page resource. */
export interface GraphicsState {
  name: string;
  ref: unknown;
}

/**
 * Operators per page, appended to each page once at the end, in PDF space (origin at the page's
 * bottom-left corner, y up; pdfmake's pages are drawn in a y-down space, which this undoes), fully
 * opaque whatever opacity pdfmake's last drawing on the page left set.
 */
export class PageOps {
  private readonly pages = new Map<number, { ops: string[]; fonts: Set<RunFont>; states: Set<GraphicsState> }>();

  add(page: number, ops: string, fonts: readonly RunFont[], states: readonly GraphicsState[] = []): void {
    let entry = this.pages.get(page);
    if (!entry) {
      entry = { ops: [], fonts: new Set(), states: new Set() };
      this.pages.set(page, entry);
    }
    entry.ops.push(ops);
    for (const font of fonts) entry.fonts.add(font);
    for (const state of states) entry.states.add(state);
  }

  writeTo(pdf: PdfKitLike): void {
    if (this.pages.size === 0) return;
    const opaque = { name: 'GsOpaque', ref: pdf.ref({ Type: 'ExtGState', ca: 1, CA: 1 }) };
    opaque.ref.end('');
    for (const [page, entry] of this.pages) {
      pdf.switchToPage(page);
      for (const font of entry.fonts) font.useOn(pdf.page);
      for (const state of [opaque, ...entry.states]) pdf.page.ext_gstates[state.name] = state.ref;
      pdf.addContent(`q 1 0 0 -1 0 ${pdf.page.height} cm /${opaque.name} gs\n${entry.ops.join('\n')}\nQ`);
    }
  }
}

/**
 * The zlib level of the pages' content streams and the table forms: most of a report's bytes
 * (a month's 3.7 MB before deflate, 3.0 MB with literal strings). pdfkit deflates every stream at
 * zlib's default level (6): 34 ms of the 3.7 MB; level 2 took 17 ms, and the month's file grows
 * by about 8 % (docs/decisions/196-report-pdf-night.md).
 */
export const CONTENT_DEFLATE_LEVEL = 2;

/** Deflates what a stream holds now, at CONTENT_DEFLATE_LEVEL, so that pdfkit writes it as it is at the end. */
export function deflateNow(stream: PdfKitStream): void {
  stream.buffer = [deflateSync(Buffer.concat(stream.buffer), { level: CONTENT_DEFLATE_LEVEL })];
  stream.compress = false;
  stream.data.Filter = 'FlateDecode';
}

/** Every page's content stream deflated now (once nothing more is drawn into the pages). */
export function deflatePages(pdf: PdfKitLike): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let page = start; page < start + count; page++) {
    pdf.switchToPage(page);
    deflateNow(pdf.page.content);
  }
}
