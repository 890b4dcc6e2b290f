import { z } from 'zod';
import { dbText } from './input-schemas';
import { isAlertCode, type Language } from './alert-codes';
import { displayTemperature, isOverThreshold } from './levels';
import { isSensorError, isSensorWarning } from './sensor-status';
import { alertTexts, warningSeverity } from './sensor-view';

export { locationLabel } from './sensor-view';

// Store floor diagrams and sensor placement (000 §2, §4, §5, §9). Pure: the map's units and
// zoom, the placement offset, the 20-sensor rule, the editor's placement moves, what an upload
// is by its content (never its name), and whether an SVG is safe to keep. Decisions are in
// docs/decisions/050-diagrams.md.

// ---- the map ------------------------------------------------------------------------------

/**
 * The map is 1200 units wide and 500 high (000 §9). A position is (x, y) in these units, x from
 * the left edge, y from the top edge; the diagram image is fitted inside, centred, keeping its
 * proportions. (0, 0) means "not placed" (000 §4).
 */
export const MAP_WIDTH = 1200;
export const MAP_HEIGHT = 500;
/** Zoom 0 fits the whole map to the width of the screen; each step doubles (+) or halves (-). */
export const MIN_ZOOM = -1;
export const MAX_ZOOM = 3;
export const ZOOM_STEP = 1;
/** At most 20 sensors on a diagram (000 §9): shown as 設置済み n / 20, and enforced. */
export const MAX_PLACED_SENSORS = 20;
/** A chosen sensor lands at the click plus (10, -20) (000 §4). */
export const PLACEMENT_OFFSET = { x: 10, y: -20 } as const;
/** The diagram page refreshes every 60 s (000 §9). */
export const DIAGRAM_REFRESH_MS = 60_000;

export interface MapPoint {
  x: number;
  y: number;
}

export const UNPLACED: MapPoint = { x: 0, y: 0 };

export function isPlaced(point: MapPoint): boolean {
  return !(point.x === 0 && point.y === 0);
}

export function isWithinMap(point: MapPoint): boolean {
  return Number.isInteger(point.x) && Number.isInteger(point.y) && point.x >= 0 && point.x <= MAP_WIDTH && point.y >= 0 && point.y <= MAP_HEIGHT;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Where a sensor chosen after a click at `click` (map units) goes: the click plus (10, -20),
 * rounded to whole units and kept on the map. A placement never lands on (0, 0), which would
 * read as "not placed".
 */
export function placementFor(click: MapPoint): MapPoint {
  const x = clamp(Math.round(click.x + PLACEMENT_OFFSET.x), 0, MAP_WIDTH);
  const y = clamp(Math.round(click.y + PLACEMENT_OFFSET.y), 0, MAP_HEIGHT);
  return x === 0 && y === 0 ? { x: 1, y: 1 } : { x, y };
}

export function clampZoom(zoom: number): number {
  return clamp(Math.round(zoom), MIN_ZOOM, MAX_ZOOM);
}

/** Scale of a zoom level relative to the fitted map: 2^zoom. */
/** The map width (px) at which markers are drawn at their full size; narrower, they shrink with it. */
const MARKER_FULL_SIZE_WIDTH = 900;
const MARKER_MIN_SCALE = 0.4;

/**
 * The scale of the sensor markers on a map drawn `widthPx` wide: 1 on a desktop, smaller on a
 * phone in proportion to the map (a 350 px plan would be covered by full-size markers), never
 * below 0.4, where the temperature is still readable.
 */
export function markerScale(widthPx: number): number {
  return Math.min(1, Math.max(MARKER_MIN_SCALE, widthPx / MARKER_FULL_SIZE_WIDTH));
}

export function zoomScale(zoom: number): number {
  return 2 ** clampZoom(zoom);
}

/**
 * The zoom at which a map fitted `viewWidthPx` wide draws its markers at full size (the first
 * view of the store diagram on a phone, issue 33 item 8): 0 when the fitted map already does.
 */
export function readableZoom(viewWidthPx: number): number {
  if (viewWidthPx <= 0 || viewWidthPx >= MARKER_FULL_SIZE_WIDTH) return 0;
  return clampZoom(Math.ceil(Math.log2(MARKER_FULL_SIZE_WIDTH / viewWidthPx)));
}

/** A map point as percentages of the map, for absolutely positioned markers. */
export function toPercent(point: MapPoint): { left: number; top: number } {
  return { left: (point.x / MAP_WIDTH) * 100, top: (point.y / MAP_HEIGHT) * 100 };
}

/** The map point under a pointer, from its offset inside the drawn map of the given size (pixels). */
export function fromPixels(offsetX: number, offsetY: number, width: number, height: number): MapPoint {
  return { x: clamp((offsetX / width) * MAP_WIDTH, 0, MAP_WIDTH), y: clamp((offsetY / height) * MAP_HEIGHT, 0, MAP_HEIGHT) };
}

// ---- the placement editor -----------------------------------------------------------------

/** equipment_id → position; a sensor missing from the map or at (0, 0) is not placed. */
export type Placements = Readonly<Record<number, MapPoint>>;

export function placedCount(placements: Placements): number {
  return Object.values(placements).filter(isPlaced).length;
}

export function isSensorPlaced(placements: Placements, equipmentId: number): boolean {
  const point = placements[equipmentId];
  return point !== undefined && isPlaced(point);
}

/** A sensor may go on the map when it is already there (a move) or fewer than 20 are placed. */
export function canPlace(placements: Placements, equipmentId: number): boolean {
  return isSensorPlaced(placements, equipmentId) || placedCount(placements) < MAX_PLACED_SENSORS;
}

/** Places (or moves) a sensor at a point; refused (unchanged) when it would be the 21st. */
export function placeSensor(placements: Placements, equipmentId: number, at: MapPoint): Placements {
  if (!canPlace(placements, equipmentId)) return placements;
  return { ...placements, [equipmentId]: at };
}

/** Takes a sensor off the map: saved as (0, 0). */
export function removeSensor(placements: Placements, equipmentId: number): Placements {
  return { ...placements, [equipmentId]: UNPLACED };
}

/**
 * The popup of a placed sensor offers the list to swap: the chosen sensor takes the clicked
 * one's place (leaving its own, if it had one) and the clicked one comes off the map.
 */
export function swapSensor(placements: Placements, placedId: number, chosenId: number): Placements {
  if (placedId === chosenId) return placements;
  const at = placements[placedId];
  if (!at || !isPlaced(at)) return placements;
  return { ...placements, [placedId]: UNPLACED, [chosenId]: at };
}

/** The positions that differ from the saved ones, as the save call's items. */
export function changedPositions(saved: Placements, edited: Placements): { equipment_id: number; position_x: number; position_y: number }[] {
  return Object.entries(edited)
    .filter(([id, point]) => {
      const before = saved[Number(id)] ?? UNPLACED;
      return before.x !== point.x || before.y !== point.y;
    })
    .map(([id, point]) => ({ equipment_id: Number(id), position_x: point.x, position_y: point.y }))
    .sort((a, b) => a.equipment_id - b.equipment_id);
}

export interface PlacementSensor {
  equipmentId: number;
  equipmentName: string;
  locationNo: number | null;
}

/** The editor's list order (000 §5): by location number (missing first, as 00), then name. */
export function sortForPlacement<T extends PlacementSensor>(sensors: readonly T[]): T[] {
  return [...sensors].sort(
    (a, b) => (a.locationNo ?? 0) - (b.locationNo ?? 0) || a.equipmentName.localeCompare(b.equipmentName, 'ja') || a.equipmentId - b.equipmentId,
  );
}

// ---- the markers of the show page --------------------------------------------------------

/** A sensor's latest temperature as the views carry it: °C, ERROR, DEF or null (no reading). */
export type MarkerTemperature = number | 'ERROR' | 'DEF' | null;

export interface MarkerReading {
  temperature: MarkerTemperature;
  lowerLimit: number | null;
  upperLimit: number | null;
  /** Sensor status: 0 none, 1 warning, 2 error. */
  status: number;
  alertCodes: readonly string[];
}

export interface MarkerView {
  text: string;
  /** ℃ after a value; empty for ERROR, DEF and --. */
  unit: string;
  tone: 'value' | 'error' | 'def' | 'missing';
  /** Outside its limits (000 §4): highlighted. Never for DEF, ERROR or a missing value. */
  over: boolean;
  /** The marker's colour: its status, or no data before the first reading. */
  statusTone: 'normal' | 'warning' | 'error' | 'nodata';
  /** The warning icon: status 1 or 2, suppressed for DEF when only temperature alerts follow the first (000 §4). */
  warning: 1 | 2 | null;
  /** The alert messages, each once. */
  alerts: string[];
}

/** How a sensor's marker reads on the diagram. */
export function markerView(reading: MarkerReading, language: Language = 'JP'): MarkerView {
  const { temperature, lowerLimit, upperLimit, status } = reading;
  const codes = reading.alertCodes.filter(isAlertCode);
  const over = isOverThreshold(temperature, lowerLimit, upperLimit);
  const shown = displayTemperature(temperature);
  const warning = warningSeverity(status, temperature, codes);
  const statusTone = isSensorError(status) ? 'error' : isSensorWarning(status) ? 'warning' : temperature === null ? 'nodata' : 'normal';
  return { ...shown, over, statusTone, warning, alerts: alertTexts(codes, status, language) };
}

/** The show page draws at most 20 placed sensors (000 §9), in list order. */
export function shownOnDiagram<T extends { positionX: number; positionY: number }>(sensors: readonly T[]): T[] {
  return sensors.filter((sensor) => isPlaced({ x: sensor.positionX, y: sensor.positionY })).slice(0, MAX_PLACED_SENSORS);
}

// ---- uploads ------------------------------------------------------------------------------

export const DIAGRAM_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type DiagramContentType = (typeof DIAGRAM_CONTENT_TYPES)[number];

/** Each uploaded file is at most 10 MB; one call carries at most 5 files. */
export const MAX_DIAGRAM_BYTES = 10 * 1024 * 1024;
export const MAX_DIAGRAM_FILES = 5;
/** A whole upload: the files at their largest, and 1 MB for the form's other fields and the multipart framing. */
export const MAX_DIAGRAM_UPLOAD_BYTES = MAX_DIAGRAM_FILES * MAX_DIAGRAM_BYTES + 1024 * 1024;
export const DIAGRAM_NAME_MAX = 255;
/** What the file picker offers; the server still decides by content. */
export const DIAGRAM_ACCEPT = '.pdf,.png,.jpg,.jpeg,.svg,application/pdf,image/png,image/jpeg,image/svg+xml';

export const DIAGRAM_MESSAGES = {
  saved: 'センサ配置を保存しました',
  saveFailed: '保存に失敗しました',
  noSensors: '配置できるセンサがありません。',
  notRegistered: '店舗図面が登録されていません',
  editHint: '店舗図面をクリック（タップ）して全てのセンサを配置してください',
  /** Under the diagram on a phone, which opens zoomed in. */
  phoneHint: '文字が読める大きさで表示しています。指でスクロールして移動し、全体は「縮小」で表示できます。',
  limitReached: `センサは${MAX_PLACED_SENSORS}台まで配置できます。`,
  unsupported: '対応していないファイル形式です。PDF、PNG、JPG、SVGのファイルを選択してください。',
  unsafeSvg: 'このSVGファイルはスクリプトなどを含むため登録できません。',
  invalidSvg: 'SVGファイルを読み取れませんでした。',
  tooLarge: `ファイルサイズは${MAX_DIAGRAM_BYTES / 1024 / 1024}MBまでです。`,
  tooMany: `一度にアップロードできるファイルは${MAX_DIAGRAM_FILES}件までです。`,
  noFile: 'ファイルを選択してください。',
  uploadFailed: '図面のアップロードに失敗しました。',
  reflectFailed: '店舗図面に反映できませんでした。',
} as const;

export type DiagramFileVerdict =
  | { ok: true; contentType: DiagramContentType }
  | { ok: false; reason: 'unsupported' | 'invalid_svg' | 'unsafe_svg'; detail: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);

/**
 * What an uploaded file is, by its bytes alone: `%PDF-` a PDF, the PNG signature a PNG,
 * FF D8 FF a JPEG, and well-formed UTF-8 XML whose root is <svg> (in the SVG namespace) an
 * SVG — kept only when it cannot run script (see checkSvg). Anything else is refused.
 */
export function classifyDiagramFile(bytes: Uint8Array): DiagramFileVerdict {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { ok: true, contentType: 'application/pdf' };
  if (startsWith(bytes, PNG_SIGNATURE)) return { ok: true, contentType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ok: true, contentType: 'image/jpeg' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'unsupported', detail: 'not a PDF, PNG, JPEG or SVG file' };
  }
  text = text.replace(/^\uFEFF/, '');
  if (!/^\s*</.test(text)) return { ok: false, reason: 'unsupported', detail: 'not a PDF, PNG, JPEG or SVG file' };
  const svg = checkSvg(text);
  if (svg.ok) return { ok: true, contentType: 'image/svg+xml' };
  return svg;
}

export type SvgVerdict = { ok: true } | { ok: false; reason: 'unsupported' | 'invalid_svg' | 'unsafe_svg'; detail: string };

/** Elements that run script or embed active content; refused anywhere in an SVG. */
const FORBIDDEN_ELEMENTS = new Set(['script', 'foreignobject', 'iframe', 'embed', 'object', 'handler', 'listener', 'frame', 'frameset', 'applet', 'meta', 'base']);
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const LINK_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction']);
const SAFE_DATA_URL = /^data:image\/(png|jpe?g|gif|webp);/;
const MAX_DEPTH = 256;

const PREDEFINED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the character references of XML text; null when one is undefined or malformed. */
function decodeEntities(value: string): string | null {
  let failed = false;
  const decoded = value.replace(/&([^;&\s]*);?/g, (match, body: string) => {
    if (!match.endsWith(';')) {
      failed = true;
      return '';
    }
    if (body in PREDEFINED_ENTITIES) return PREDEFINED_ENTITIES[body];
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (!numeric) {
      failed = true;
      return '';
    }
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2], 10);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      failed = true;
      return '';
    }
    return String.fromCodePoint(code);
  });
  return failed ? null : decoded;
}

/** The value as a browser would read a URL or CSS: without whitespace and control characters, lower case. */
// eslint-disable-next-line no-control-regex -- control characters are what browsers ignore inside a URL scheme
const squeeze = (value: string) => value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

function unsafeValue(attribute: string, value: string): string | null {
  const squeezed = squeeze(value);
  if (squeezed.includes('javascript:') || squeezed.includes('vbscript:')) return `${attribute} holds a script URL`;
  if (squeezed.includes('expression(')) return `${attribute} holds a CSS expression`;
  if (LINK_ATTRIBUTES.has(localName(attribute)) && squeezed.startsWith('data:') && !SAFE_DATA_URL.test(squeezed)) {
    return `${attribute} embeds a data URL that is not a PNG, JPEG, GIF or WebP image`;
  }
  return null;
}

const NAME = /^[A-Za-z_:\u00C0-\uFFFF][-A-Za-z0-9_:.\u00B7\u00C0-\uFFFF]*/;

/**
 * Whether `text` is an SVG that is safe to keep: well-formed XML (a small strict parser: no
 * DTD internal subset, so no entity declarations; only the five predefined entities and
 * character references), a root <svg> element in the SVG namespace, and nothing that can run
 * script or pull in active content: no <script>, <foreignObject> (or iframe, embed, object …),
 * no on* event-handler attribute, no javascript:/vbscript: URL (also when written with
 * character references), no data: URL other than a raster image, no processing instruction
 * other than the XML declaration (so no xml-stylesheet).
 */
export function checkSvg(text: string): SvgVerdict {
  const invalid = (detail: string): SvgVerdict => ({ ok: false, reason: 'invalid_svg', detail });
  const unsafe = (detail: string): SvgVerdict => ({ ok: false, reason: 'unsafe_svg', detail });
  const source = text.replace(/^\uFEFF/, '');
  let i = 0;
  const stack: string[] = [];
  let rootSeen = false;
  let rootClosed = false;
  let inStyle = false;

  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i])) i++;
  };

  if (source.startsWith('<?xml', i) && /\s|\?/.test(source[i + 5] ?? '')) {
    const end = source.indexOf('?>', i);
    if (end < 0) return invalid('unterminated XML declaration');
    i = end + 2;
  }

  while (i < source.length) {
    if (source[i] !== '<') {
      const next = source.indexOf('<', i);
      const chunk = source.slice(i, next < 0 ? source.length : next);
      if (stack.length === 0) {
        if (chunk.trim() !== '') return invalid('text outside the root element');
      } else {
        const decoded = decodeEntities(chunk);
        if (decoded === null) return invalid('undefined entity or malformed character reference');
        if (chunk.includes(']]>')) return invalid(']]> in text');
        if (inStyle) {
          const problem = unsafeValue('style', decoded);
          if (problem) return unsafe(problem);
        }
      }
      i = next < 0 ? source.length : next;
      continue;
    }
    if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i + 4);
      if (end < 0) return invalid('unterminated comment');
      i = end + 3;
      continue;
    }
    if (source.startsWith('<![CDATA[', i)) {
      if (stack.length === 0) return invalid('CDATA outside the root element');
      const end = source.indexOf(']]>', i + 9);
      if (end < 0) return invalid('unterminated CDATA section');
      if (inStyle) {
        const problem = unsafeValue('style', source.slice(i + 9, end));
        if (problem) return unsafe(problem);
      }
      i = end + 3;
      continue;
    }
    if (source.startsWith('<!DOCTYPE', i)) {
      if (rootSeen) return invalid('DOCTYPE after the root element');
      const end = source.indexOf('>', i);
      if (end < 0) return invalid('unterminated DOCTYPE');
      const doctype = source.slice(i, end);
      if (doctype.includes('[')) return unsafe('a DOCTYPE with an internal subset (entity declarations)');
      i = end + 1;
      continue;
    }
    if (source.startsWith('<?', i)) {
      const end = source.indexOf('?>', i);
      if (end < 0) return invalid('unterminated processing instruction');
      return unsafe(`processing instruction <?${/^[^\s?]*/.exec(source.slice(i + 2))?.[0] ?? ''}?>`);
    }
    if (source.startsWith('</', i)) {
      i += 2;
      const name = NAME.exec(source.slice(i, i + 512))?.[0];
      if (!name) return invalid('malformed end tag');
      i += name.length;
      skipSpace();
      if (source[i] !== '>') return invalid(`malformed end tag </${name}>`);
      i++;
      const open = stack.pop();
      if (open !== name) return invalid(`</${name}> does not close <${open ?? ''}>`);
      inStyle = false;
      if (stack.length === 0) rootClosed = true;
      continue;
    }
    // A start tag.
    i++;
    const name = NAME.exec(source.slice(i, i + 512))?.[0];
    if (!name) return invalid('malformed start tag');
    i += name.length;
    if (rootClosed) return invalid('more than one root element');
    const element = localName(name);
    if (FORBIDDEN_ELEMENTS.has(element)) return unsafe(`<${name}> element`);
    const attributes = new Map<string, string>();
    let selfClosing = false;
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith('/>', i)) {
        selfClosing = true;
        i += 2;
        break;
      }
      if (source[i] === '>') {
        i++;
        break;
      }
      if (i === before) return invalid(`attributes of <${name}> need white space between them`);
      const attribute = NAME.exec(source.slice(i, i + 512))?.[0];
      if (!attribute) return invalid(`malformed attribute in <${name}>`);
      i += attribute.length;
      skipSpace();
      if (source[i] !== '=') return invalid(`attribute ${attribute} of <${name}> has no value`);
      i++;
      skipSpace();
      const quote = source[i];
      if (quote !== '"' && quote !== "'") return invalid(`attribute ${attribute} of <${name}> is not quoted`);
      const end = source.indexOf(quote, i + 1);
      if (end < 0) return invalid(`unterminated attribute ${attribute}`);
      const raw = source.slice(i + 1, end);
      i = end + 1;
      if (raw.includes('<')) return invalid(`< in attribute ${attribute}`);
      const value = decodeEntities(raw);
      if (value === null) return invalid(`undefined entity in attribute ${attribute}`);
      if (attributes.has(attribute)) return invalid(`attribute ${attribute} repeated in <${name}>`);
      attributes.set(attribute, value);
      if (localName(attribute).startsWith('on')) return unsafe(`event handler attribute ${attribute}`);
      const problem = unsafeValue(attribute, value);
      if (problem) return unsafe(problem);
    }
    if (!rootSeen) {
      rootSeen = true;
      if (element !== 'svg') return { ok: false, reason: 'unsupported', detail: `the root element is <${name}>, not <svg>` };
      const prefix = name.includes(':') ? name.slice(0, name.indexOf(':')) : null;
      const namespace = attributes.get(prefix ? `xmlns:${prefix}` : 'xmlns');
      if (namespace !== SVG_NAMESPACE) return invalid(`the root <svg> is not in the SVG namespace (${SVG_NAMESPACE})`);
    }
    if (!selfClosing) {
      if (stack.length >= MAX_DEPTH) return invalid('elements nested too deeply');
      stack.push(name);
      inStyle = element === 'style';
    } else if (stack.length === 0) {
      rootClosed = true;
    }
  }
  if (!rootSeen) return { ok: false, reason: 'unsupported', detail: 'no root element' };
  if (stack.length > 0) return invalid(`<${stack[stack.length - 1]}> is not closed`);
  return { ok: true };
}

/** A diagram's name from the uploaded file's name: its base name, without control characters, at most 255 characters. */
export function diagramNameOf(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- a name must not carry control characters
  const cleaned = [...base.replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, DIAGRAM_NAME_MAX).join('');
  return cleaned || 'diagram';
}

const EXTENSIONS: Record<DiagramContentType, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/svg+xml': 'svg' };

/** The download name: the diagram's name with the extension of what the file really is. */
export function downloadNameOf(diagramName: string, contentType: string): string {
  const extension = EXTENSIONS[contentType as DiagramContentType];
  if (!extension) return diagramName;
  const stem = diagramName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const same = extension === 'jpg' ? /\.jpe?g$/i.test(diagramName) : diagramName.toLowerCase().endsWith(`.${extension}`);
  return same ? diagramName : `${stem || 'diagram'}.${extension}`;
}

export const isPdf = (contentType: string) => contentType === 'application/pdf';

// ---- inputs (one zod schema per input) -----------------------------------------------------

const storeId = dbText({ required_error: 'store_id is required', invalid_type_error: 'store_id must be a string' }).trim().min(1, 'store_id is required').max(20, 'store_id is at most 20 characters');

/** A whole number from a JSON number or a numeric string. */
const wholeNumber = (field: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z.number({ required_error: `${field} is required`, invalid_type_error: `${field} must be a number` }).finite(`${field} must be a number`),
  );

const positiveId = (field: string) => wholeNumber(field).pipe(z.number().int(`${field} must be a whole number`).positive(`${field} must be positive`).max(2_147_483_647, `${field} is too large`));

/** GET /v1/diagram?store_id */
export const DiagramListQuerySchema = z.object({ store_id: storeId });

/** GET /v1/diagram/image?diagram_id (the console's copy adds download=1 for a download). */
export const DiagramImageQuerySchema = z.object({
  diagram_id: positiveId('diagram_id'),
  download: z.enum(['0', '1']).optional(),
});

/** The placement editor's query: diagram_id optional; 0 means none (nothing loads, 000 §4). */
export const DiagramEditQuerySchema = z.object({
  diagram_id: z.preprocess((value) => (value === '' ? undefined : value), wholeNumber('diagram_id').pipe(z.number().int('diagram_id must be a whole number').min(0, 'diagram_id must not be negative').max(2_147_483_647)).optional()),
});

/** The editor's 店舗図面に反映: a diagram of the store or a template. */
export const ReflectDiagramSchema = z.object({ diagram_id: positiveId('diagram_id') });

/** POST /v1/diagram (multipart): the text field store_id; the files are checked by content. */
export const DiagramUploadSchema = z.object({ store_id: storeId });

/** POST /v1/stores/diagram {store_id, diagram_id}: diagram_id 0 or null clears the store's diagram. */
export const SetStoreDiagramSchema = z.object({
  store_id: storeId,
  diagram_id: z.union([z.null(), wholeNumber('diagram_id').pipe(z.number().int('diagram_id must be a whole number').min(0, 'diagram_id must not be negative').max(2_147_483_647))]),
});

/** Positions may be sent with decimals (a map click); they are rounded to whole units and checked against the map. */
const coordinate = (field: string, max: number) =>
  wholeNumber(field)
    .transform((value) => Math.round(value))
    .pipe(z.number().min(0, `${field} must be between 0 and ${max}`).max(max, `${field} must be between 0 and ${max}`));

export const SensorPositionSchema = z.object({
  equipment_id: positiveId('equipment_id'),
  position_x: coordinate('position_x', MAP_WIDTH),
  position_y: coordinate('position_y', MAP_HEIGHT),
});

export type SensorPosition = z.infer<typeof SensorPositionSchema>;

/** At most this many positions in one call (a store's sensors, placed or not). */
export const MAX_POSITIONS_PER_CALL = 500;

const uniqueEquipment = (items: SensorPosition[], ctx: z.RefinementCtx) => {
  const seen = new Set<number>();
  items.forEach((item, index) => {
    if (seen.has(item.equipment_id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index, 'equipment_id'], message: 'equipment_id is repeated' });
    seen.add(item.equipment_id);
  });
};

const positionList = z.array(SensorPositionSchema).max(MAX_POSITIONS_PER_CALL, `at most ${MAX_POSITIONS_PER_CALL} positions`);

/**
 * POST /v1/equipments/position: one {equipment_id, position_x, position_y} as in the
 * specification, or an array of them saved in one transaction (the 保存 of several sensors).
 */
export const SensorPositionsSchema: z.ZodType<SensorPosition[], z.ZodTypeDef, unknown> = z.unknown().transform((value, ctx) => {
  const result = Array.isArray(value) ? positionList.min(1, 'give at least one position').superRefine(uniqueEquipment).safeParse(value) : SensorPositionSchema.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, code: z.ZodIssueCode.custom, message: issue.message });
    return z.NEVER;
  }
  return Array.isArray(result.data) ? result.data : [result.data];
});

/** The editor's hidden field: the changed positions as JSON (none when nothing moved). */
export const PositionsFieldSchema = z
  .string({ required_error: 'positions is required' })
  .max(100_000)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'positions is not JSON' });
      return z.NEVER;
    }
  })
  .pipe(positionList.superRefine(uniqueEquipment));
