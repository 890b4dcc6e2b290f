import { describe, expect, it } from 'vitest';
import { absoluteUrl, appUrl, resourceUrl, sensorGraphUrl, storeUrl, withQuery } from '~/domain/urls';

describe('URL builders', () => {
  it('links the graph of a sensor on a day with equipment_id and start_date, the store id encoded', () => {
    expect(sensorGraphUrl('S 1', 7, '20261121')).toBe('/stores/S%201/temp_graphs?equipment_id=7&start_date=20261121');
    expect(storeUrl.graphsCsv('S001', { equipment_id: '1,2', unit: 'day', start_date: '20261121' })).toBe('/stores/S001/temp_graphs.csv?equipment_id=1%2C2&unit=day&start_date=20261121');
  });

  it('builds the store pages', () => {
    expect(storeUrl.sensors('S001')).toBe('/stores/S001/temp_managements_image');
    expect(storeUrl.sensors('S001', 'list', '?include_hidden=1')).toBe('/stores/S001/temp_managements_list?include_hidden=1');
    expect(storeUrl.alertHistory('S001')).toBe('/stores/S001/warning_histories');
    expect(storeUrl.diagramEdit('S001')).toBe('/stores/S001/sensor_diagrams/edit');
    expect(storeUrl.diagramEdit('S001', 4)).toBe('/stores/S001/sensor_diagrams/edit?diagram_id=4');
    expect(storeUrl.sensorSettings('S001', { tab: 'diagram' })).toBe('/stores/S001/sensors/show?tab=diagram');
  });

  it('keeps a search string as it is and drops an empty one', () => {
    expect(storeUrl.alertHistoryCsv('S001', '?kind=1&start_date=20261101')).toBe('/stores/S001/warning_histories.csv?kind=1&start_date=20261101');
    expect(storeUrl.alertHistoryCsv('S001', '?')).toBe('/stores/S001/warning_histories.csv');
    expect(withQuery('/x', { a: 1, b: undefined, c: null })).toBe('/x?a=1');
  });

  it('builds resources and mail links', () => {
    expect(resourceUrl.events()).toBe('/resources/events');
    expect(resourceUrl.events('S 1')).toBe('/resources/events?store_id=S+1');
    expect(resourceUrl.sensorToday('S001', 3)).toBe('/resources/sensor-today?store_id=S001&equipment_id=3');
    expect(absoluteUrl('https://on-reco.example/', appUrl.dashboard)).toBe('https://on-reco.example/dashboard');
  });
});

describe('resource URLs', () => {
  it('builds the diagram image link, with the download flag only when asked', () => {
    expect(resourceUrl.diagramImage(3)).toBe('/resources/diagram-image?diagram_id=3');
    expect(resourceUrl.diagramImage(3, true)).toBe('/resources/diagram-image?diagram_id=3&download=1');
  });
});
