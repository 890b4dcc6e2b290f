import type { ReactNode } from 'react';
import type { Language } from '~/domain/alert-codes';
import type { StoreSensors } from '~/domain/sensor-view';
import { EmptySensors } from './empty-sensors';
import { SensorPopup, useSensorPopup } from './sensor-popup';
import { SensorViewHeader } from './sensor-view-header';

type Popup = ReturnType<typeof useSensorPopup>;

/**
 * The frame both sensor views share (000 §2): header with the view toggle, the empty state,
 * the detail popup. `children` draws the sensors, opening the popup. The routes keep the data
 * live (useLiveData).
 */
export function SensorViewPage({
  store,
  stale,
  view,
  includeHidden,
  language,
  children,
}: {
  store: StoreSensors;
  /** The sensors whose reading is stale, with its age (staleReadings). */
  stale: Record<number, string>;
  view: 'image' | 'list';
  includeHidden: boolean;
  language: Language;
  children: (popup: Popup) => ReactNode;
}) {
  const popup = useSensorPopup(store.sensors);
  return (
    <main className="px-4 py-6 sm:px-6">
      <SensorViewHeader storeId={store.store_id} storeName={store.store_name} view={view} includeHidden={includeHidden} count={store.sensors.length} />
      {store.sensors.length === 0 ? <EmptySensors /> : children(popup)}
      {popup.sensor && popup.anchor && <SensorPopup storeId={store.store_id} sensor={popup.sensor} staleAge={stale[popup.sensor.equipment_id]} anchor={popup.anchor} language={language} onClose={popup.close} />}
    </main>
  );
}
