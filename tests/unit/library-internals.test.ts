// The two places where we reach into a library's internals (decision 219), pinned to the versions
// they were written for. An upgrade fails here, by name, before anything renders or routes wrongly:
// check the reach against the new version, then move the pin (or drop the reach).
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PdfKitLike } from '~/reports/pdf-direct.server';
import { PDF_FONT, pdfMake } from '~/reports/pdf-fonts.server';

const require = createRequire(import.meta.url);
const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

describe('@remix-run/router: patches/@remix-run+router+1.23.3.patch (decision 194)', () => {
  it('is the version the patch was made for', () => {
    const patch = readdirSync('patches').find((file) => file.startsWith('@remix-run+router+'));
    expect(patch, 'the router patch is gone: drop this test with it').toBeDefined();
    expect(versionOf('@remix-run/router'), `${patch} was made for another version: re-make it or drop it`).toBe('1.23.3');
  });

  it('is applied: the server build keeps a route tree\'s ranked branches (a route added later is not seen)', () => {
    // The CommonJS build is the server's and the only one patched.
    const { matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router');
    const routes = [{ id: 'a', path: 'a' }];
    expect(matchRoutes(routes, '/a')?.[0].route.id).toBe('a');
    routes.push({ id: 'b', path: 'b' });
    expect(matchRoutes(routes, '/b'), 'the patch is not applied (npm ci runs patch-package in postinstall)').toBeNull();
    expect(matchRoutes([...routes], '/b')?.[0].route.id).toBe('b');
  });
});

describe('pdfkit under pdfmake: text written into the pages after layout (app/reports/pdf-direct.server.ts, decision 219)', () => {
  it('is the pdfkit and pdfmake the direct drawing was written for', () => {
    expect(versionOf('pdfkit'), 'pdf-direct.server.ts writes into pdfkit\'s private page streams: check PdfKitLike against the new pdfkit').toBe('0.19.1');
    expect(versionOf('pdfmake'), 'pdf-direct.server.ts takes pdfmake\'s pdfkit document after layout: check PdfKitLike against the new pdfmake').toBe('0.3.11');
  });

  it('gives a document with every private part PdfKitLike names', async () => {
    const pdf = (await pdfMake().createPdf({ content: ['x'], defaultStyle: { font: PDF_FONT } }, { bufferPages: true } as never).getStream()) as unknown as PdfKitLike;
    for (const method of ['provideFont', 'bufferedPageRange', 'switchToPage', 'ref', 'addContent', 'end', 'on'] as const) expect(typeof pdf[method], method).toBe('function');
    expect(pdf.bufferedPageRange()).toEqual({ start: 0, count: 1 });
    pdf.switchToPage(0);
    const { page } = pdf;
    expect(typeof page.height).toBe('number');
    for (const part of ['fonts', 'xobjects', 'ext_gstates'] as const) expect(typeof page[part], part).toBe('object');
    // The content stream keeps its chunks until the end, and says whether pdfkit deflates them then.
    expect(Array.isArray(page.content.buffer)).toBe(true);
    expect(typeof page.content.compress).toBe('boolean');
    expect(typeof page.content.write).toBe('function');
    const font = pdf.provideFont(PDF_FONT, false, false) as unknown as { id: unknown; ascender: unknown; encode: unknown; ref: unknown };
    expect([typeof font.id, typeof font.ascender, typeof font.encode, typeof font.ref]).toEqual(['string', 'number', 'function', 'function']);
    pdf.end();
  });
});
