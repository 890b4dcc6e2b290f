import { describe, expect, it } from 'vitest';
import { csvLine, csvText } from '~/domain/csv';

describe('csvText: free text a spreadsheet must not run as a formula', () => {
  it.each(['=SUM(A1)', '+1', '-1', '@cmd', '\tx', '\rx'])('%j gets a leading apostrophe', (value) => {
    expect(csvText(value)).toBe(`'${value}`);
  });

  it('keeps other text as it is and writes null as an empty cell', () => {
    expect(csvText('冷蔵 1')).toBe('冷蔵 1');
    expect(csvText('a=b')).toBe('a=b');
    expect(csvText(null)).toBe('');
  });

  it('is quoted by csvLine when it holds a comma, a quote or a line end', () => {
    expect(csvLine([csvText('=a,b'), 'c"d'])).toBe(`"'=a,b","c""d"\r\n`);
  });
});
