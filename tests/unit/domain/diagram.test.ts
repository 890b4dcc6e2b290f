import { describe, expect, it } from 'vitest';
import {
  canPlace,
  changedPositions,
  checkSvg,
  classifyDiagramFile,
  clampZoom,
  DiagramEditQuerySchema,
  diagramNameOf,
  downloadNameOf,
  fromPixels,
  isWithinMap,
  markerView,
  MAX_PLACED_SENSORS,
  placedCount,
  placementFor,
  placeSensor,
  type Placements,
  PositionsFieldSchema,
  removeSensor,
  SensorPositionsSchema,
  SetStoreDiagramSchema,
  shownOnDiagram,
  sortForPlacement,
  swapSensor,
  toPercent,
  zoomScale,
  markerScale,
} from '~/domain/diagram';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 500">';

describe('the map (000 §4, §9)', () => {
  it('places a chosen sensor at the click plus (10, -20), rounded and kept on the 1200 × 500 map', () => {
    expect(placementFor({ x: 100, y: 200 })).toEqual({ x: 110, y: 180 });
    expect(placementFor({ x: 100.4, y: 200.6 })).toEqual({ x: 110, y: 181 });
    expect(placementFor({ x: 1195, y: 5 })).toEqual({ x: 1200, y: 0 });
    expect(placementFor({ x: 600, y: 510 })).toEqual({ x: 610, y: 490 });
    // never (0, 0), which would read as "not placed"
    expect(placementFor({ x: -10, y: 10 })).toEqual({ x: 1, y: 1 });
  });

  it('checks positions against the map', () => {
    expect(isWithinMap({ x: 0, y: 0 })).toBe(true);
    expect(isWithinMap({ x: 1200, y: 500 })).toBe(true);
    expect(isWithinMap({ x: 1201, y: 10 })).toBe(false);
    expect(isWithinMap({ x: 10, y: -1 })).toBe(false);
    expect(isWithinMap({ x: 10.5, y: 1 })).toBe(false);
  });

  it('zooms from -1 to 3 in steps of 1, each step doubling', () => {
    expect(clampZoom(-5)).toBe(-1);
    expect(clampZoom(9)).toBe(3);
    expect(zoomScale(-1)).toBe(0.5);
    expect(zoomScale(0)).toBe(1);
    expect(zoomScale(2)).toBe(4);
  });

  it('converts between pixels, map units and percentages', () => {
    expect(fromPixels(300, 125, 600, 250)).toEqual({ x: 600, y: 250 });
    expect(fromPixels(-3, 400, 600, 250)).toEqual({ x: 0, y: 500 });
    expect(toPercent({ x: 600, y: 125 })).toEqual({ left: 50, top: 25 });
  });
});

describe('the placement editor', () => {
  const twenty: Placements = Object.fromEntries(Array.from({ length: MAX_PLACED_SENSORS }, (_, i) => [i + 1, { x: 10 + i, y: 10 }]));

  it('counts placed sensors and refuses a 21st, but lets a placed one move', () => {
    expect(placedCount({ 1: { x: 0, y: 0 }, 2: { x: 5, y: 0 } })).toBe(1);
    const full = { ...twenty, 21: { x: 0, y: 0 } };
    expect(placedCount(full)).toBe(20);
    expect(canPlace(full, 21)).toBe(false);
    expect(placeSensor(full, 21, { x: 50, y: 50 })).toBe(full);
    expect(placeSensor(full, 3, { x: 50, y: 50 })[3]).toEqual({ x: 50, y: 50 });
  });

  it('removes a sensor as (0, 0) and swaps a placed sensor for another', () => {
    const start: Placements = { 1: { x: 100, y: 100 }, 2: { x: 0, y: 0 }, 3: { x: 300, y: 300 } };
    expect(removeSensor(start, 1)[1]).toEqual({ x: 0, y: 0 });
    // an unplaced sensor takes the clicked one's place
    expect(swapSensor(start, 1, 2)).toEqual({ 1: { x: 0, y: 0 }, 2: { x: 100, y: 100 }, 3: { x: 300, y: 300 } });
    // a placed one leaves its own place for the clicked one's
    expect(swapSensor(start, 1, 3)).toEqual({ 1: { x: 0, y: 0 }, 2: { x: 0, y: 0 }, 3: { x: 100, y: 100 } });
    expect(swapSensor(start, 2, 3)).toBe(start);
  });

  it('sends only the changed positions', () => {
    const saved: Placements = { 1: { x: 100, y: 100 }, 2: { x: 0, y: 0 } };
    expect(changedPositions(saved, saved)).toEqual([]);
    expect(changedPositions(saved, { 1: { x: 0, y: 0 }, 2: { x: 40, y: 50 } })).toEqual([
      { equipment_id: 1, position_x: 0, position_y: 0 },
      { equipment_id: 2, position_x: 40, position_y: 50 },
    ]);
  });

  it('lists sensors by location number (missing as 00), then name', () => {
    const sorted = sortForPlacement([
      { equipmentId: 1, equipmentName: 'B', locationNo: 3 },
      { equipmentId: 2, equipmentName: 'A', locationNo: 3 },
      { equipmentId: 3, equipmentName: 'Z', locationNo: null },
      { equipmentId: 4, equipmentName: 'C', locationNo: 1 },
    ]);
    expect(sorted.map((sensor) => sensor.equipmentId)).toEqual([3, 4, 2, 1]);
  });

  it('shows at most 20 placed sensors on the diagram', () => {
    const sensors = Array.from({ length: 25 }, (_, i) => ({ id: i, positionX: i < 23 ? 10 : 0, positionY: 10 }));
    expect(shownOnDiagram(sensors)).toHaveLength(20);
    expect(shownOnDiagram(sensors).every((sensor) => sensor.positionX !== 0)).toBe(true);
  });
});

describe('markers (000 §3, §4)', () => {
  const base = { lowerLimit: 0, upperLimit: 10, status: 0, alertCodes: [] as string[] };

  it('writes the temperature with one decimal and highlights a value outside the limits', () => {
    expect(markerView({ ...base, temperature: 4 })).toMatchObject({ text: '4.0', unit: '℃', over: false, statusTone: 'normal', warning: null });
    expect(markerView({ ...base, temperature: 12.34 })).toMatchObject({ text: '12.3', over: true });
    expect(markerView({ ...base, temperature: -0.04 })).toMatchObject({ text: '0.0', over: true });
    expect(markerView({ ...base, temperature: 10 })).toMatchObject({ over: false });
  });

  it('shows ERROR, DEF and -- without a unit and never over', () => {
    expect(markerView({ ...base, temperature: 'ERROR' })).toMatchObject({ text: 'ERROR', unit: '', tone: 'error', over: false });
    expect(markerView({ ...base, temperature: 'DEF' })).toMatchObject({ text: 'DEF', unit: '', tone: 'def', over: false });
    expect(markerView({ ...base, temperature: null })).toMatchObject({ text: '--', tone: 'missing', statusTone: 'nodata' });
  });

  it('colours by status and suppresses the warning icon for DEF with only temperature alerts after the first', () => {
    expect(markerView({ ...base, temperature: 12, status: 2, alertCodes: ['OE00000001'] })).toMatchObject({ statusTone: 'error', warning: 2, alerts: ['温度異常（上限超過）'] });
    expect(markerView({ ...base, temperature: 12, status: 1, alertCodes: ['OE00000001'] })).toMatchObject({ statusTone: 'warning', warning: 1, alerts: ['上限温度超過'] });
    expect(markerView({ ...base, temperature: 'DEF', status: 2, alertCodes: ['OE00000001'] }).warning).toBeNull();
    expect(markerView({ ...base, temperature: 'DEF', status: 2, alertCodes: ['OE00000001', 'OE00000003'] }).warning).toBe(2);
  });
});

describe('uploads are typed by content, not by name', () => {
  it('recognises PDF, PNG and JPEG by their magic bytes', () => {
    expect(classifyDiagramFile(text('%PDF-1.7\n...'))).toEqual({ ok: true, contentType: 'application/pdf' });
    expect(classifyDiagramFile(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toEqual({ ok: true, contentType: 'image/png' });
    expect(classifyDiagramFile(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toEqual({ ok: true, contentType: 'image/jpeg' });
  });

  it('refuses other files', () => {
    for (const file of [text('GIF89a....'), bytes(0x89, 0x50, 0x4e, 0x47), text('hello'), bytes(0xff, 0xfe, 0x00), text('<html><body></body></html>'), new Uint8Array()]) {
      expect(classifyDiagramFile(file)).toMatchObject({ ok: false, reason: 'unsupported' });
    }
  });

  it('accepts a plain SVG, with declaration, doctype, comments, CDATA styles and raster data URLs', () => {
    const svg = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<!-- plan -->
${SVG_OPEN}<style><![CDATA[ rect { fill: #eee; } ]]></style>
  <g id="a" class='b'><rect x="0" y="0" width="10" height="10"/><text x="5" y="5">売場 &amp; レジ &#x2192;</text></g>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <a xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="#a"><circle r="1"/></a>
</svg>
`;
    expect(checkSvg(svg)).toEqual({ ok: true });
    expect(classifyDiagramFile(text(svg))).toEqual({ ok: true, contentType: 'image/svg+xml' });
    expect(checkSvg('<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:rect/></svg:svg>')).toEqual({ ok: true });
  });

  it('refuses SVGs that can run script or pull in active content', () => {
    const unsafe = [
      `${SVG_OPEN}<script>alert(1)</script></svg>`,
      `${SVG_OPEN}<SCRIPT>alert(1)</SCRIPT></svg>`,
      `${SVG_OPEN}<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script></svg>`,
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      `${SVG_OPEN}<rect ONCLICK="alert(1)"/></svg>`,
      `${SVG_OPEN}<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`,
      `${SVG_OPEN}<a href="javascript:alert(1)"><rect/></a></svg>`,
      `${SVG_OPEN}<a href=" jav&#x09;ascript:alert(1)"><rect/></a></svg>`,
      `${SVG_OPEN}<a href="&#106;avascript:alert(1)"><rect/></a></svg>`,
      `${SVG_OPEN}<animate attributeName="href" to="javascript:alert(1)"/></svg>`,
      `${SVG_OPEN}<image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>`,
      `${SVG_OPEN}<iframe src="https://example.com"/></svg>`,
      `<?xml version="1.0"?><?xml-stylesheet href="evil.xsl" type="text/xsl"?>${SVG_OPEN}</svg>`,
      `<!DOCTYPE svg [<!ENTITY x "y">]>${SVG_OPEN}</svg>`,
      `${SVG_OPEN}<style>rect { background: url("javascript:alert(1)") }</style></svg>`,
    ];
    for (const svg of unsafe) {
      expect(checkSvg(svg), svg).toMatchObject({ ok: false, reason: 'unsafe_svg' });
      expect(classifyDiagramFile(text(svg)).ok, svg).toBe(false);
    }
  });

  it('refuses malformed XML and non-SVG roots', () => {
    const invalid = [
      `${SVG_OPEN}<rect></svg>`,
      `${SVG_OPEN}<rect x=1/></svg>`,
      `${SVG_OPEN}<text>&nbsp;</text></svg>`,
      `${SVG_OPEN}</svg><svg xmlns="http://www.w3.org/2000/svg"></svg>`,
      `${SVG_OPEN}<rect x="1" x="2"/></svg>`,
      '<svg viewBox="0 0 1 1"></svg>',
      `${SVG_OPEN}`,
    ];
    for (const svg of invalid) expect(checkSvg(svg), svg).toMatchObject({ ok: false, reason: 'invalid_svg' });
    expect(checkSvg('<html xmlns="http://www.w3.org/1999/xhtml"></html>')).toMatchObject({ ok: false, reason: 'unsupported' });
  });

  it('names a diagram after the file and downloads it with the extension of what it is', () => {
    expect(diagramNameOf('C:\\plans\\floor.png')).toBe('floor.png');
    expect(diagramNameOf('a\u0000b.svg')).toBe('ab.svg');
    expect(diagramNameOf('   ')).toBe('diagram');
    expect(diagramNameOf('x'.repeat(300))).toHaveLength(255);
    expect(downloadNameOf('floor.png', 'application/pdf')).toBe('floor.pdf');
    expect(downloadNameOf('floor.jpeg', 'image/jpeg')).toBe('floor.jpeg');
    expect(downloadNameOf('店舗図面', 'image/svg+xml')).toBe('店舗図面.svg');
  });
});

describe('inputs', () => {
  it('takes one position or an array of them, rounded and range-checked, ids unique', () => {
    expect(SensorPositionsSchema.parse({ equipment_id: 5, position_x: 110.4, position_y: '20' })).toEqual([{ equipment_id: 5, position_x: 110, position_y: 20 }]);
    expect(SensorPositionsSchema.parse([{ equipment_id: 1, position_x: 0, position_y: 0 }, { equipment_id: 2, position_x: 1200, position_y: 500 }])).toHaveLength(2);
    const outOfRange = SensorPositionsSchema.safeParse({ equipment_id: 5, position_x: 1201, position_y: 0 });
    expect(outOfRange.success).toBe(false);
    expect(outOfRange.error?.issues[0].path).toEqual(['position_x']);
    expect(SensorPositionsSchema.safeParse({ equipment_id: 'x', position_x: 1, position_y: 1 }).error?.issues[0].path).toEqual(['equipment_id']);
    expect(SensorPositionsSchema.safeParse([]).success).toBe(false);
    expect(SensorPositionsSchema.safeParse([{ equipment_id: 1, position_x: 1, position_y: 1 }, { equipment_id: 1, position_x: 2, position_y: 2 }]).success).toBe(false);
    expect(PositionsFieldSchema.parse('[]')).toEqual([]);
    expect(PositionsFieldSchema.safeParse('not json').success).toBe(false);
  });

  it('sets or clears the store diagram and reads the editor query', () => {
    expect(SetStoreDiagramSchema.parse({ store_id: 'S1', diagram_id: 3 })).toEqual({ store_id: 'S1', diagram_id: 3 });
    expect(SetStoreDiagramSchema.parse({ store_id: 'S1', diagram_id: null }).diagram_id).toBeNull();
    expect(SetStoreDiagramSchema.safeParse({ store_id: 'S1', diagram_id: -1 }).success).toBe(false);
    expect(SetStoreDiagramSchema.safeParse({ diagram_id: 1 }).success).toBe(false);
    expect(DiagramEditQuerySchema.parse({})).toEqual({ diagram_id: undefined });
    expect(DiagramEditQuerySchema.parse({ diagram_id: '0' })).toEqual({ diagram_id: 0 });
    expect(DiagramEditQuerySchema.safeParse({ diagram_id: 'abc' }).success).toBe(false);
  });
});

describe('marker scale (issue 11)', () => {
  it('draws markers full size on a desktop map and shrinks them with a phone-sized one, not below 0.4', () => {
    expect(markerScale(1200)).toBe(1);
    expect(markerScale(900)).toBe(1);
    expect(markerScale(450)).toBe(0.5);
    expect(markerScale(120)).toBe(0.4);
  });
});
