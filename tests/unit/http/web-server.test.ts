import { describe, expect, it } from 'vitest';
import { isCrossSite } from '~/http/server/cross-site.server';
import { pathTemplateOf } from '~/http/server/request-log.server';

const own = new Set(['http://localhost:3000']);

describe('isCrossSite', () => {
  it('trusts Fetch Metadata first: same-origin and user-initiated pass, cross-site and same-site are refused', () => {
    expect(isCrossSite({ secFetchSite: 'same-origin', origin: 'https://evil.example' }, own)).toBe(false);
    expect(isCrossSite({ secFetchSite: 'none' }, own)).toBe(false);
    expect(isCrossSite({ secFetchSite: 'cross-site', origin: 'http://localhost:3000' }, own)).toBe(true);
    expect(isCrossSite({ secFetchSite: 'same-site' }, own)).toBe(true);
  });

  it('falls back to Origin, and lets requests without either through (no browser, no cookie)', () => {
    expect(isCrossSite({ origin: 'http://localhost:3000' }, own)).toBe(false);
    expect(isCrossSite({ origin: 'https://evil.example' }, own)).toBe(true);
    expect(isCrossSite({ origin: 'null' }, own)).toBe(true);
    expect(isCrossSite({}, own)).toBe(false);
  });
});

describe('pathTemplateOf', () => {
  const routes = [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'app', children: [{ id: 'store', path: 'stores/:storeId', children: [{ id: 'graphs', path: 'temp_graphs' }] }] },
        { id: 'api', path: 'on-reco/v1/stores/pin' },
        { id: 'catch', path: 'on-reco/v1/*' },
      ],
    },
  ];

  it('names the route, never the ids in the URL', () => {
    expect(pathTemplateOf(routes, '/stores/S001/temp_graphs')).toBe('/stores/:storeId/temp_graphs');
    expect(pathTemplateOf(routes, '/on-reco/v1/stores/pin')).toBe('/on-reco/v1/stores/pin');
    expect(pathTemplateOf(routes, '/on-reco/v1/whatever/123')).toBe('/on-reco/v1/*');
    // Single fetch: a page's data request is named after the page.
    expect(pathTemplateOf(routes, '/stores/S001/temp_graphs.data')).toBe('/stores/:storeId/temp_graphs');
  });
});
