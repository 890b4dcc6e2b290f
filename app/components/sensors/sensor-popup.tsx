import { Link, useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { BatteryIcon, ChartIcon, CloseIcon, FurnitureIcon, SignalIcon } from '~/components/icons';
import type { Language } from '~/domain/alert-codes';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { formatDateTime, parseCompact, toCompactDate } from '~/domain/japan-time';
import { MISSING_SIGNAL_IN_DETAIL, MISSING_TEXT, batteryLevel, displayLimit, isOverThreshold, signalLevel } from '~/domain/levels';
import { type SensorPopupData, type StoreSensor, popupSide, statusTexts } from '~/domain/sensor-view';
import { isSensorError } from '~/domain/sensor-status';
import { resourceUrl, sensorGraphUrl } from '~/domain/urls';
import { StopAlertLinks } from '~/components/alert-history/stop-links';
import { LocationNo } from './location-no';
import { useFocusOnOpen, useModalKeys } from '~/components/use-modal-keys';
import { Sparkline } from './sparkline';
import { StaleReading } from './stale-reading';
import { TemperatureText } from './temperature-text';

const POPUP_WIDTH = 288;
const GAP = 12;
const MARGIN = 8;

interface Position {
  side: 'right' | 'left';
  left: number;
  top: number;
}

/** Where the popup goes beside its sensor: right when more than 300 px remain there, else left. */
function place(anchor: HTMLElement, height: number): Position {
  const rect = anchor.getBoundingClientRect();
  const viewportWidth = document.documentElement.clientWidth;
  const side = popupSide(rect.right, viewportWidth);
  const left = side === 'right' ? rect.right + GAP : Math.max(MARGIN, rect.left - GAP - POPUP_WIDTH);
  const top = Math.min(Math.max(MARGIN, rect.top), Math.max(MARGIN, window.innerHeight - height - MARGIN));
  return { side, left, top };
}

/**
 * The sensor detail popup (000 §2, §4): opens beside the clicked sensor and closes on a click on
 * the backdrop, its ✕ or Escape. Today's alert count and sparkline are fetched when it opens.
 */
export function SensorPopup({
  storeId,
  sensor,
  staleAge,
  anchor,
  language,
  onClose,
}: {
  storeId: string;
  sensor: StoreSensor;
  /** The reading's age when it is stale (staleReadings). */
  staleAge?: string;
  anchor: HTMLElement;
  language: Language;
  onClose: () => void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<Position | null>(null);
  const today = useFetcher<SensorPopupData>();
  const { load } = today;

  useLayoutEffect(() => {
    const update = () => setPosition(place(anchor, panel.current?.offsetHeight ?? 0));
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [anchor, today.data]);

  useEffect(() => {
    load(resourceUrl.sensorToday(storeId, sensor.equipment_id));
  }, [load, storeId, sensor.equipment_id]);

  // Focus moves in once the popup is placed (a hidden panel takes no focus) and back to the
  // sensor that opened it on close; Tab stays inside and Escape closes from anywhere inside.
  useFocusOnOpen(panel, position !== null, anchor);
  const onKeyDown = useModalKeys(panel, onClose);

  const alerts = sensor.alerts.map((alert) => alert.alert_id);
  const texts = statusTexts(alerts, sensor.status, language);
  const signal = signalLevel(sensor.receive_sensitivity ?? MISSING_SIGNAL_IN_DETAIL);
  const battery = batteryLevel(sensor.battery);
  const measuredAt = sensor.measured_at ? parseCompact(sensor.measured_at) : null;
  const day = today.data?.day ?? toCompactDate(new Date());
  const statusTone = alerts.length === 0 ? 'text-emerald-700' : isSensorError(sensor.status) ? 'font-semibold text-red-600' : 'text-amber-600';
  const minutes = (value: number | null) => (value === null ? MISSING_TEXT : `${value}分`);

  return (
    <>
      <div className="fixed inset-0 z-40 bg-slate-900/10" data-testid="sensor-popup-backdrop" onClick={onClose} aria-hidden />
      <div
        ref={panel}
        role="dialog"
        aria-label={`${sensor.equipment_name} の詳細`}
        aria-modal="true"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-side={position?.side}
        className="fixed z-50 rounded-lg border border-slate-200 bg-white text-sm shadow-xl outline-none"
        style={{ width: POPUP_WIDTH, left: position?.left ?? -9999, top: position?.top ?? 0, visibility: position ? 'visible' : 'hidden' }}
      >
        <div className="flex items-center gap-3 border-b border-slate-100 px-4 py-2.5">
          <span className="flex items-center gap-1 text-xs text-slate-500" data-signal={signal}>
            <SignalIcon level={signal} className="h-5 w-5" />
            <span className="tabular-nums">{sensor.receive_sensitivity === null ? MISSING_TEXT : `${sensor.receive_sensitivity} dBm`}</span>
          </span>
          <span className="flex items-center gap-1 text-xs text-slate-500" data-battery={battery}>
            <BatteryIcon level={battery} className="h-5 w-5" />
            <span className="tabular-nums">{sensor.battery === null ? MISSING_TEXT : `${sensor.battery}%`}</span>
          </span>
          <button type="button" onClick={onClose} className="-mr-1.5 ml-auto rounded p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600" aria-label="閉じる">
            <CloseIcon className="h-4 w-4" />
          </button>
        </div>
        <div className="px-4 pb-4 pt-3">
          <div className="flex items-start gap-3">
            <span className="mt-0.5 rounded-md bg-slate-100 p-1.5 text-slate-600">
              <FurnitureIcon kind={sensor.icon_kind} className="h-6 w-6" title={furnitureLabel(sensor.icon_kind, language)} />
            </span>
            <div className="min-w-0 flex-1">
              <p className="break-words font-semibold leading-snug text-slate-800">
                <LocationNo value={sensor.location_no} className="mr-1.5 text-xs text-slate-400" />
                {sensor.equipment_name}
              </p>
              <p className="font-mono text-xs text-slate-500">{sensor.serial_no}</p>
            </div>
          </div>
          <dl className="mt-3 grid grid-cols-[6.5rem_1fr] gap-x-2 gap-y-1.5 text-xs">
            <dt className="text-slate-500">温度</dt>
            <dd>
              <TemperatureText temperature={sensor.temperature} over={isOverThreshold(sensor.temperature, sensor.lower_limit, sensor.upper_limit)} stale={Boolean(staleAge)} size="sm" />
              <span className="ml-2 tabular-nums text-slate-400">
                ({displayLimit(sensor.lower_limit)} / {displayLimit(sensor.upper_limit)})
              </span>
            </dd>
            <dt className="text-slate-500">ステータス</dt>
            <dd className={statusTone} data-testid="sensor-status">
              {texts.map((text) => (
                <span key={text} className="block">{text}</span>
              ))}
            </dd>
            <dt className="text-slate-500">ガードタイム</dt>
            <dd className="tabular-nums text-slate-700">{minutes(sensor.guard_time)}</dd>
            <dt className="text-slate-500">スヌーズ時間</dt>
            <dd className="tabular-nums text-slate-700">{minutes(sensor.snoozing_time)}</dd>
            <dt className="text-slate-500">最終測定</dt>
            <dd className="tabular-nums text-slate-700">
              {measuredAt ? formatDateTime(measuredAt) : MISSING_TEXT}
              <span className="ml-1.5">
                <StaleReading age={staleAge} />
              </span>
            </dd>
          </dl>
          {today.data && <StopAlertLinks alerts={today.data.open_alerts} className="mt-3" />}
          <Link
            to={sensorGraphUrl(storeId, sensor.equipment_id, day)}
            className="mt-3 block rounded-md border border-slate-200 p-2.5 hover:border-brand-500 hover:bg-brand-50"
          >
            <span className="mb-1.5 flex items-center gap-1.5 text-xs">
              <ChartIcon className="h-4 w-4 text-brand-600" />
              <span className="font-semibold text-brand-700">温度グラフ</span>
              <span className="ml-auto text-slate-500">
                本日の警報{' '}
                <span className={`font-semibold tabular-nums ${today.data && today.data.alert_count > 0 ? 'text-red-600' : 'text-slate-700'}`} data-testid="today-alert-count">
                  {today.data ? today.data.alert_count : MISSING_TEXT}
                </span>{' '}
                件
              </span>
            </span>
            {today.data ? (
              <Sparkline points={today.data.points} lower={sensor.lower_limit} upper={sensor.upper_limit} />
            ) : (
              <span className="block h-14 animate-pulse rounded bg-slate-100" />
            )}
          </Link>
        </div>
      </div>
    </>
  );
}

/** Which sensor's popup is open and beside which element; it closes by itself when the sensor leaves the data. */
export function useSensorPopup(sensors: StoreSensor[]) {
  const [open, setOpen] = useState<{ id: number; anchor: HTMLElement } | null>(null);
  const sensor = open ? (sensors.find((item) => item.equipment_id === open.id) ?? null) : null;
  const close = useCallback(() => setOpen(null), []);
  const show = useCallback((id: number, anchor: HTMLElement) => setOpen({ id, anchor }), []);
  return { sensor, anchor: open?.anchor ?? null, openId: sensor?.equipment_id ?? null, show, close };
}
