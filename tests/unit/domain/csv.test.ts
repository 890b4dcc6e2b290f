import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument, csvLine } from '~/domain/csv';

describe('the CSV writer: no cell a spreadsheet would run as a formula', () => {
  it.each(['=SUM(A1)', '=1+1', '+1+1', '-1+2', '-A1', '@cmd', '\tx', '--1'])('%j gets a leading apostrophe', (value) => {
    expect(csvCell(value)).toBe(`'${value}`);
  });

  it('keeps other text, plain numbers and the missing mark as they are, and writes null as an empty cell', () => {
    expect(csvCell('冷蔵 1')).toBe('冷蔵 1');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('-3.5')).toBe('-3.5');
    expect(csvCell('+12')).toBe('+12');
    expect(csvCell(-62)).toBe('-62');
    expect(csvCell('--')).toBe('--');
    expect(csvCell(null)).toBe('');
  });

  it('quotes a cell holding a comma, a quote or a line end, after the guard', () => {
    expect(csvLine(['=a,b', 'c"d', '\rx'])).toBe(`"'=a,b","c""d","'\rx"\r\n`);
  });

  it('writes a file as the BOM and a CRLF-ended line per row', () => {
    expect(csvDocument([['a', 1], [], [null, '@b']])).toBe('\uFEFFa,1\r\n\r\n,\'@b\r\n');
  });
});
