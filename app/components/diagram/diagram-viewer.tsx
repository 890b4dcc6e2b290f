import { Link } from '@remix-run/react';
import { useState } from 'react';
import { EditIcon, FloorPlanIcon } from '~/components/icons';
import { DIAGRAM_MESSAGES, shownOnDiagram } from '~/domain/diagram';
import type { DiagramSource } from './diagram-image';
import { FloorMap, MapPin } from './floor-map';
import { MarkerLegend, type MarkerSensor, SensorMarker } from './sensor-marker';

export interface ViewerSensor extends MarkerSensor {
  positionX: number;
  positionY: number;
}

/**
 * The store diagram with its sensors (000 §2 "Store diagram"): a センサ表示 checkbox shows or
 * hides the markers; the edit link is for non-store users. Reused by the sensors show page's
 * diagram tab.
 */
export function StoreDiagramView({ diagram, sensors, stale, editHref }: { diagram: DiagramSource; sensors: readonly ViewerSensor[]; stale: Record<number, string>; editHref: string | null }) {
  const [showSensors, setShowSensors] = useState(true);
  const shown = shownOnDiagram(sensors);
  const unplaced = sensors.length - sensors.filter((sensor) => sensor.positionX !== 0 || sensor.positionY !== 0).length;
  return (
    <section aria-label="店舗図面">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <label className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300 accent-brand-600" checked={showSensors} onChange={(event) => setShowSensors(event.target.checked)} />
          センサ表示
        </label>
        <div className="flex items-center gap-4">
          <MarkerLegend />
          {editHref && (
            <Link to={editHref} className="btn-secondary">
              <EditIcon className="h-4 w-4" />
              編集
            </Link>
          )}
        </div>
      </div>
      <FloorMap diagram={diagram} readableOnPhones>
        {showSensors &&
          shown.map((sensor) => (
            <MapPin key={sensor.equipmentId} x={sensor.positionX} y={sensor.positionY} label={sensor.equipmentName}>
              <SensorMarker sensor={sensor} staleAge={stale[sensor.equipmentId]} />
            </MapPin>
          ))}
      </FloorMap>
      <p className="mt-2 text-xs text-slate-600 sm:hidden">{DIAGRAM_MESSAGES.phoneHint}</p>
      <p className="mt-2 text-xs text-slate-500">
        図面：{diagram.diagramName} ／ 配置済み {shown.length} 台{unplaced > 0 ? `・未配置 ${unplaced} 台` : ''}
      </p>
    </section>
  );
}

/** 000 §2: with no diagram, the store diagram is not registered yet, with 登録する for non-store users. */
export function DiagramNotRegistered({ registerHref }: { registerHref: string | null }) {
  return (
    <div className="card flex flex-col items-center justify-center gap-4 px-6 py-20 text-center" data-testid="diagram-not-registered">
      <span className="rounded-full bg-slate-100 p-5 text-slate-400">
        <FloorPlanIcon className="h-10 w-10" />
      </span>
      <p className="text-base font-semibold text-slate-700">{DIAGRAM_MESSAGES.notRegistered}</p>
      {registerHref && (
        <Link to={registerHref} className="btn-primary">
          登録する
        </Link>
      )}
    </div>
  );
}
