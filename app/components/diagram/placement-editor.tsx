import { useFetcher } from '@remix-run/react';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { Dialog } from '~/components/dialog';
import { LocationNo } from '~/components/sensors/location-no';
import {
  canPlace,
  changedPositions,
  DIAGRAM_MESSAGES,
  isSensorPlaced,
  type MapPoint,
  MAX_PLACED_SENSORS,
  placedCount,
  placementFor,
  placeSensor,
  type Placements,
  removeSensor,
  sortForPlacement,
  swapSensor,
} from '~/domain/diagram';
import type { DiagramSource } from './diagram-image';
import { FloorMap, MapPin } from './floor-map';
import { type PickerSensor, SensorPicker } from './sensor-picker';

export interface EditorSensor {
  equipmentId: number;
  equipmentName: string;
  locationNo: number | null;
  positionX: number;
  positionY: number;
}

export interface SaveOutcome {
  intent: 'positions';
  ok: boolean;
  message?: string;
}

type Picking = { mode: 'new'; at: MapPoint } | { mode: 'placed'; equipmentId: number } | null;

const initialPlacements = (sensors: readonly EditorSensor[]): Placements => Object.fromEntries(sensors.map((sensor) => [sensor.equipmentId, { x: sensor.positionX, y: sensor.positionY }]));

/**
 * The placement editor (000 §2, §4): a click on the map drops a provisional marker and opens
 * the sensor list; the chosen sensor lands at the click plus (10, −20). A click on a placed
 * sensor opens its popup (remove, or swap with another). 保存 sends the changed positions in
 * one call and answers with a dialog.
 */
export function PlacementEditor({ diagram, sensors, actions }: { diagram: DiagramSource; sensors: readonly EditorSensor[]; actions: ReactNode }) {
  const ordered = useMemo(() => sortForPlacement(sensors), [sensors]);
  const [saved, setSaved] = useState<Placements>(() => initialPlacements(sensors));
  const [placements, setPlacements] = useState<Placements>(saved);
  const [picking, setPicking] = useState<Picking>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [pending, setPending] = useState<Placements | null>(null);
  const fetcher = useFetcher<SaveOutcome>();
  const count = placedCount(placements);
  const close = useCallback(() => setPicking(null), []);

  const choices = (exclude: number | null): PickerSensor[] =>
    ordered
      .filter((sensor) => sensor.equipmentId !== exclude)
      .map((sensor) => ({
        equipmentId: sensor.equipmentId,
        equipmentName: sensor.equipmentName,
        locationNo: sensor.locationNo,
        placed: isSensorPlaced(placements, sensor.equipmentId),
        // A swap frees a place, so any sensor may take the clicked one's.
        placeable: exclude !== null || canPlace(placements, sensor.equipmentId),
      }));

  const choose = (equipmentId: number) => {
    if (!picking) return;
    if (picking.mode === 'new') setPlacements((current) => placeSensor(current, equipmentId, placementFor(picking.at)));
    else setPlacements((current) => swapSensor(current, picking.equipmentId, equipmentId));
    setPicking(null);
  };

  const selected = picking?.mode === 'placed' ? ordered.find((sensor) => sensor.equipmentId === picking.equipmentId) : undefined;
  const popover = picking && {
    at: picking.mode === 'new' ? picking.at : placements[picking.equipmentId],
    content: (
      <SensorPicker
        selected={selected ? { ...selected, placed: true, placeable: true } : null}
        choices={choices(selected?.equipmentId ?? null)}
        limitReached={picking.mode === 'new' && count >= MAX_PLACED_SENSORS}
        onChoose={choose}
        onRemove={() => {
          if (picking.mode === 'placed') setPlacements((current) => removeSensor(current, picking.equipmentId));
          setPicking(null);
        }}
        onClose={close}
      />
    ),
  };

  const changes = changedPositions(saved, placements);
  const saving = fetcher.state !== 'idle';
  const outcome = fetcher.state === 'idle' ? fetcher.data : undefined;
  // Once the save answers, what was sent becomes the saved state (or stays unsaved on failure).
  if (pending && outcome) {
    if (outcome.ok) setSaved(pending);
    setPending(null);
  }
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <p className="mr-auto text-sm font-medium text-slate-700">{DIAGRAM_MESSAGES.editHint}</p>
        <span className={`rounded-full px-3 py-1 text-sm font-semibold tabular-nums ${count >= MAX_PLACED_SENSORS ? 'bg-amber-100 text-amber-800' : 'bg-brand-50 text-brand-700'}`} data-testid="placed-count">
          設置済み {count} / {MAX_PLACED_SENSORS}
        </span>
        <fetcher.Form
          method="post"
          onSubmit={() => {
            setDialogOpen(true);
            setPending(placements);
          }}
        >
          <input type="hidden" name="intent" value="positions" />
          <input type="hidden" name="diagram_id" value={diagram.diagramId} />
          <input type="hidden" name="positions" value={JSON.stringify(changes)} />
          <button type="submit" className="btn-primary" disabled={saving}>
            保存
          </button>
        </fetcher.Form>
        {actions}
      </div>
      {/* On a phone the editor's plan keeps a desktop's width inside its scroller (pan to place):
          scaled down to 350 px its sensor buttons would overlap, too small to tap (WCAG 2.5.8). */}
      <FloorMap diagram={diagram} onMapClick={(at) => setPicking({ mode: 'new', at })} popover={popover} onViewChange={close} mapClassName="max-sm:min-w-[1100px]">
        {ordered
          .filter((sensor) => isSensorPlaced(placements, sensor.equipmentId))
          .map((sensor) => {
            const at = placements[sensor.equipmentId];
            const active = picking?.mode === 'placed' && picking.equipmentId === sensor.equipmentId;
            return (
              <MapPin key={sensor.equipmentId} x={at.x} y={at.y}>
                <button
                  type="button"
                  className={`flex max-w-[10rem] items-center gap-1 whitespace-nowrap rounded-md border-2 px-2 py-0.5 text-xs font-semibold shadow-md ${active ? 'border-brand-700 bg-brand-600 text-white' : 'border-brand-600 bg-white text-slate-800 hover:bg-brand-50'}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    setPicking({ mode: 'placed', equipmentId: sensor.equipmentId });
                  }}
                  data-testid="placed-sensor"
                  data-equipment-id={sensor.equipmentId}
                >
                  <LocationNo value={sensor.locationNo} className={active ? 'text-brand-100' : 'text-brand-700'} />
                  <span className="truncate">{sensor.equipmentName}</span>
                </button>
              </MapPin>
            );
          })}
        {picking?.mode === 'new' && (
          <MapPin x={picking.at.x} y={picking.at.y}>
            <span className="block h-4 w-4 animate-pulse rounded-full border-2 border-white bg-brand-600 shadow ring-4 ring-brand-500/30" data-testid="provisional-marker" />
          </MapPin>
        )}
      </FloorMap>
      {dialogOpen && outcome && (
        <Dialog
          title={outcome.ok ? DIAGRAM_MESSAGES.saved : DIAGRAM_MESSAGES.saveFailed}
          message={outcome.ok ? undefined : outcome.message}
          confirmLabel="OK"
          onConfirm={() => setDialogOpen(false)}
        />
      )}
      <p className="sr-only" aria-live="polite">
        {changes.length > 0 ? `未保存の変更 ${changes.length} 件` : ''}
      </p>
    </>
  );
}
