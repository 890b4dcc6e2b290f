// The CSV of `onreco stores import` and `onreco sensors import` (decision 153): one row per sensor,
// headed by the API's own field names; a store's columns are read from its first row (its other
// rows repeat them or leave them blank) and a row with no sensor columns is a store without
// sensors. The file becomes the import call's body; every error the schemas or the server name
// by its place (stores.3.sensors.2.lower_limit) is told back by the file's line and column.
import type { FieldErrors } from './errors';
import { CliError } from './errors';

export const STORE_COLUMNS = ['store_id', 'store_no', 'store_name', 'company_id', 'storegroup_id', 'prefecture_id', 'address', 'tel_no', 'opening_date', 'closing_date', 'usergroups', 'gateway_info'] as const;
export const SENSOR_COLUMNS = [
  'serial_no', 'equipment_name', 'icon_kind', 'lower_limit', 'upper_limit', 'guard_time', 'snoozing_time', 'time_constant', 'def_time',
  'installation_datetime', 'removal_datetime', 'measure_target_equipment_kind_id', 'disp_flg',
] as const;
/** Columns a stores file must have (the others may be left out). */
const REQUIRED_STORE_COLUMNS = ['store_id', 'store_no', 'store_name', 'storegroup_id', 'prefecture_id', 'address', 'opening_date', 'usergroups', 'gateway_info'];

/** The columns whose body field has another name, and back. */
const FIELD_OF_COLUMN: Record<string, string> = { usergroups: 'usergroup_names' };
const COLUMN_OF_FIELD: Record<string, string> = { usergroup_names: 'usergroups', usergroup: 'usergroups' };

interface Row {
  /** The row's line as a spreadsheet numbers it (the header is line 1). */
  line: number;
  cells: Record<string, string>;
}

/** Where each store and sensor of the body came from. */
export interface ImportLines {
  stores: { line: number; sensors: number[] }[];
}

/**
 * A CSV file's bytes as text (decision 246): UTF-8 (a BOM allowed) when they are valid UTF-8,
 * else Shift_JIS as Windows writes it (CP932, which WHATWG's shift_jis decoder is: ①, ㈱ and the
 * NEC/IBM kanji included), which is what Excel saves in Japan. Bytes that are neither are
 * refused naming both, rather than read with replacement characters into store names.
 */
export function decodeCsv(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    try {
      return new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
    } catch {
      throw new CliError(`${file} is neither UTF-8 nor Shift_JIS (CP932) text: save it from Excel as "CSV UTF-8" or "CSV (comma delimited)"`);
    }
  }
}

/** The rows of a CSV text (UTF-8, a BOM allowed), cells trimmed; blank rows are skipped but counted. */
export async function readCsv(text: string, file: string, allowed: readonly string[], required: readonly string[]): Promise<Row[]> {
  const { parseString } = await import('@fast-csv/parse');
  const records = await new Promise<string[][]>((resolve, reject) => {
    const rows: string[][] = [];
    parseString(text.replace(/^\uFEFF/, ''), { headers: false, ignoreEmpty: false, trim: true })
      .on('error', reject)
      .on('data', (row: string[]) => rows.push(row))
      .on('end', () => resolve(rows));
  }).catch((error: Error) => {
    throw new CliError(`${file} is not a CSV file: ${error.message}`);
  });
  const header = (records[0] ?? []).map((name) => name.trim());
  if (header.length === 0 || header.every((name) => name === '')) throw new CliError(`${file} is empty: its first line names the columns (${required.join(', ')}, …)`);
  const unknown = header.filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw new CliError(`${file} has columns onreco does not know: ${unknown.join(', ')} (it knows ${allowed.join(', ')})`);
  const missing = required.filter((name) => !header.includes(name));
  if (missing.length > 0) throw new CliError(`${file} lacks the columns ${missing.join(', ')}`);
  const rows: Row[] = [];
  const extra: FieldErrors = {};
  records.slice(1).forEach((record, index) => {
    const line = index + 2;
    if (record.every((cell) => cell === '')) return;
    if (record.length > header.length) extra[`line ${line}`] = `${record.length} cells, the header names ${header.length} columns`;
    rows.push({ line, cells: Object.fromEntries(header.map((name, column) => [name, record[column] ?? ''])) });
  });
  if (rows.length === 0) throw new CliError(`${file} has no rows under its header`);
  if (Object.keys(extra).length > 0) throw new CliError(`${file} has rows that do not fit its header; nothing was sent`, extra);
  return rows;
}

/** 02:00-02:30,14:00-14:30 as def_time entries; the server judges each range (a piece without "-" is one it refuses). */
function defrostRanges(text: string): { start: string; end: string }[] {
  return text
    .split(',')
    .map((range) => range.trim())
    .filter(Boolean)
    .map((range) => {
      const [start = '', end = ''] = range.split('-');
      return { start: start.trim(), end: end.trim() };
    });
}

/** The body fields of the given columns of a row: blank cells are left out (the schemas say what is required). */
function fieldsOf(row: Row, columns: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const column of columns) {
    const cell = row.cells[column];
    if (cell === undefined || cell === '') continue;
    const field = FIELD_OF_COLUMN[column] ?? column;
    if (column === 'usergroups') fields[field] = cell.split(',').map((name) => name.trim()).filter(Boolean);
    else if (column === 'def_time') fields[field] = defrostRanges(cell);
    else fields[field] = cell;
  }
  return fields;
}

const hasSensor = (row: Row) => SENSOR_COLUMNS.some((column) => (row.cells[column] ?? '') !== '');

/** The stores of a stores file, in the order of their first rows, with their sensors; a store column a later row changes is an error. */
export async function storesOfFile(text: string, file: string): Promise<{ stores: Record<string, unknown>[]; lines: ImportLines }> {
  const rows = await readCsv(text, file, [...STORE_COLUMNS, ...SENSOR_COLUMNS], REQUIRED_STORE_COLUMNS);
  const byId = new Map<string, { first: Row; store: Record<string, unknown>; sensors: Record<string, unknown>[]; lines: { line: number; sensors: number[] } }>();
  const errors: FieldErrors = {};
  for (const row of rows) {
    const storeId = row.cells.store_id;
    if (storeId === '') {
      errors[`line ${row.line}, store_id`] = 'every row names its store';
      continue;
    }
    let group = byId.get(storeId);
    if (!group) {
      group = { first: row, store: fieldsOf(row, STORE_COLUMNS), sensors: [], lines: { line: row.line, sensors: [] } };
      byId.set(storeId, group);
    } else {
      for (const column of STORE_COLUMNS) {
        const cell = row.cells[column] ?? '';
        if (cell !== '' && cell !== (group.first.cells[column] ?? '')) errors[`line ${row.line}, ${column}`] = `store ${storeId} has "${group.first.cells[column] ?? ''}" on line ${group.first.line}`;
      }
    }
    if (hasSensor(row)) {
      group.sensors.push(fieldsOf(row, SENSOR_COLUMNS));
      group.lines.sensors.push(row.line);
    }
  }
  if (Object.keys(errors).length > 0) throw importErrors(file, errors);
  const groups = [...byId.values()];
  return { stores: groups.map((group) => ({ ...group.store, sensors: group.sensors })), lines: { stores: groups.map((group) => group.lines) } };
}

/** The sensors of a sensors file for the store; a row naming another store is an error. */
export async function sensorsOfFile(text: string, file: string, storeId: string): Promise<{ sensors: Record<string, unknown>[]; lines: number[] }> {
  const rows = await readCsv(text, file, ['store_id', ...SENSOR_COLUMNS], ['serial_no']);
  const errors: FieldErrors = {};
  for (const row of rows) {
    const named = row.cells.store_id ?? '';
    if (named !== '' && named !== storeId) errors[`line ${row.line}, store_id`] = `names store ${named}, not ${storeId}`;
  }
  if (Object.keys(errors).length > 0) throw importErrors(file, errors);
  return { sensors: rows.map((row) => fieldsOf(row, SENSOR_COLUMNS)), lines: rows.map((row) => row.line) };
}

/**
 * A field error of the body (stores.3.sensors.2.def_time.0, sensors.2.serial_no) as
 * `line N, column`; a place the file does not have (the whole list) stays as it is.
 */
export function placeInFile(place: string, lines: ImportLines): { line: number; key: string } {
  // A sensors import's places are its one store's.
  const parts = (place.startsWith('sensors.') ? `stores.0.${place}` : place).split('.');
  let line: number | undefined;
  let rest: string[] = [];
  if (parts[0] === 'stores' && /^\d+$/.test(parts[1] ?? '')) {
    const store = lines.stores[Number(parts[1])];
    if (parts[2] === 'sensors' && /^\d+$/.test(parts[3] ?? '')) {
      line = store?.sensors[Number(parts[3])];
      rest = parts.slice(4);
    } else {
      line = store?.line;
      rest = parts.slice(2);
    }
  }
  if (line === undefined || rest.length === 0) return { line: Number.MAX_SAFE_INTEGER, key: place };
  const column = COLUMN_OF_FIELD[rest[0]] ?? rest[0];
  return { line, key: `line ${line}, ${column}` };
}

/** The CliError of an import refused field by field: one line each, in the file's order. */
export function importErrors(file: string, fields: Record<string, string>, lines?: ImportLines): CliError {
  const placed = Object.entries(fields).map(([place, message]) => ({ ...(lines ? placeInFile(place, lines) : { line: Number(/^line (\d+)/.exec(place)?.[1] ?? 0), key: place }), message }));
  placed.sort((a, b) => a.line - b.line);
  const count = placed.length;
  return new CliError(`${file}: ${count} ${count === 1 ? 'error' : 'errors'}; nothing was written`, Object.fromEntries(placed.map(({ key, message }) => [key, message])));
}

/** The lines of a sensors file as the store import's places (one store: its sensors). */
export const sensorLines = (lines: number[]): ImportLines => ({ stores: [{ line: lines[0] ?? 0, sensors: lines }] });
