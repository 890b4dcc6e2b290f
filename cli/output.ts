// Printing, kept apart from collecting (STYLE.md "CLI"): every listing is a readable table by
// default and the API's own JSON with --json. Widths count a Japanese character as two columns.
import stringWidth from 'string-width';
import type { CliContext } from './context';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
  /** Numbers read better right-aligned. */
  align?: 'left' | 'right';
}

const cell = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '-' : String(value));

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - stringWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** A table with a header row; an empty list says so instead of printing nothing. */
export function tableText<Row>(rows: readonly Row[], columns: readonly Column<Row>[], empty = 'no results'): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, index) => Math.max(stringWidth(column.header), ...cells.map((line) => stringWidth(line[index]))));
  const line = (values: string[]) =>
    values
      .map((value, index) => pad(value, widths[index], columns[index].align ?? 'left'))
      .join('  ')
      .trimEnd();
  return `${[line(columns.map((column) => column.header)), ...cells.map(line)].join('\n')}\n`;
}

/** Label: value lines, for one record. */
export function recordText(entries: readonly [string, string | number | null | undefined][]): string {
  const width = Math.max(...entries.map(([label]) => stringWidth(label)));
  return `${entries.map(([label, value]) => `${pad(label, width, 'left')}  ${cell(value)}`).join('\n')}\n`;
}

/** A YYYYMMDDHHmmss[SSS] Japan-time stamp of the API as YYYY/MM/DD HH:mm (the console's way); null stays null. */
export function stampText(stamp: string | null | undefined): string | null {
  if (!stamp) return null;
  return `${stamp.slice(0, 4)}/${stamp.slice(4, 6)}/${stamp.slice(6, 8)} ${stamp.slice(8, 10)}:${stamp.slice(10, 12)}`;
}

// The API's Japan-time stamps (YYYYMMDDHHmmss, optionally with milliseconds).
const STAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{3})?$/;

/** A YYYYMMDDHHmmss[SSS] Japan-time stamp as ISO 8601 with its +09:00 offset; null when it is not a valid stamp. */
export function stampIso(stamp: string): string | null {
  const match = STAMP.exec(stamp);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, millis] = match;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${millis ? `.${millis}` : ''}+09:00`;
  // A 14-digit string that is not a calendar time (an id, a serial) keeps no ISO twin.
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()) || Number(month) > 12 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const check = new Date(date.getTime() + 9 * 3600_000);
  return check.getUTCDate() === Number(day) ? iso : null;
}

/**
 * The API's JSON with an ISO 8601 twin beside every stamp: `"created_at": "20261128093000"` gains
 * `"created_at_iso": "2026-11-28T09:30:00+09:00"`, so scripts need not parse the API's format.
 */
export function withIsoStamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withIsoStamps);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = withIsoStamps(item);
    const iso = typeof item === 'string' ? stampIso(item) : null;
    if (iso && !(`${key}_iso` in value)) out[`${key}_iso`] = iso;
  }
  return out;
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout(`${JSON.stringify(withIsoStamps(value), null, 2)}\n`);
}

/** Prints the JSON with --json, else the text. */
export function print(ctx: CliContext, options: { json?: boolean }, value: unknown, text: () => string): void {
  if (options.json) printJson(ctx, value);
  else ctx.stdout(text());
}

/**
 * Runs `work` and, when it takes over a second, shows that it is still going: a line redrawn in
 * place on a terminal (with the elapsed seconds and the label `progress` gives), one line otherwise.
 */
export async function withProgress<T>(ctx: CliContext, label: string, work: (report: (text: string) => void) => Promise<T>): Promise<T> {
  const started = Date.now();
  let detail = '';
  let shown = false;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    if (ctx.interactive) ctx.stderr(`\r\x1b[2K${label}… ${detail} ${seconds}s`);
    else if (!shown) ctx.stderr(`${label}…\n`);
    shown = true;
  };
  const timer = setInterval(draw, 1000);
  try {
    return await work((text) => {
      detail = text;
      if (shown && ctx.interactive) draw();
    });
  } finally {
    clearInterval(timer);
    if (shown && ctx.interactive) ctx.stderr('\r\x1b[2K');
  }
}
