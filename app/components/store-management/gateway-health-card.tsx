import { GatewayIcon, SignalIcon } from '~/components/icons';
import { BLE_ADAPTER_LABELS, type GatewayHealthView, HEALTH_BUFFER_ALARM_RATIO, bufferFill, formatBytes, formatUptime, isBufferOverHalf, lteLevel } from '~/domain/gateway-health';
import { formatDateTime } from '~/domain/japan-time';
import { SIGNAL_LABELS } from '~/domain/levels';

const at = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '--');

/** The buffer as "12 / 2,000,000 件 (1 %)", with a bar coloured by how full it is. */
export function BufferGauge({ depth, capacity }: { depth: number | null; capacity: number | null }) {
  if (depth === null || capacity === null) return <span className="text-slate-400">--</span>;
  const fill = bufferFill(depth, capacity);
  const percent = Math.round(fill * 100);
  // Amber exactly where the list's "buffer over 50 %" filter starts, red at the alarm.
  const tone = fill >= HEALTH_BUFFER_ALARM_RATIO ? 'bg-red-500' : isBufferOverHalf(depth, capacity) ? 'bg-amber-500' : 'bg-emerald-500';
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="h-2 w-16 shrink-0 overflow-hidden rounded bg-slate-200" aria-hidden>
        <span className={`block h-full ${tone}`} style={{ width: `${Math.max(percent, depth > 0 ? 2 : 0)}%` }} />
      </span>
      <span className="tabular-nums">
        {depth.toLocaleString('ja-JP')} / {capacity.toLocaleString('ja-JP')}件（{percent}%）
      </span>
    </span>
  );
}

/** The LTE icon of 000 §9 with the dBm beside it (missing: no bars, "--"). */
export function LteSignal({ rssi }: { rssi: number | null }) {
  const level = lteLevel(rssi);
  return (
    <span className="flex items-center gap-1.5">
      <SignalIcon level={level} className="h-5 w-5" />
      <span className="whitespace-nowrap text-slate-700">{rssi === null ? '--' : `${rssi} dBm`}</span>
      <span className="sr-only">{SIGNAL_LABELS[level]}</span>
    </span>
  );
}

/** The store management page's gateway health card (issue 16): what the gateway last said about itself. */
export function GatewayHealthCard({ health }: { health: GatewayHealthView }) {
  const rows: [string, React.ReactNode][] = [
    ['最終通信', <span key="c" className={health.offline ? 'font-medium text-red-600' : ''}>{at(health.last_contact_at)}{health.offline ? '（通信なし）' : ''}</span>],
    ['最終ヘルス報告', at(health.reported_at)],
    ['バージョン', health.version ?? '--'],
    ['稼働時間', formatUptime(health.uptime_seconds)],
    ['バッファ', <BufferGauge key="b" depth={health.buffer_depth} capacity={health.buffer_capacity} />],
    ['最古の未送信', at(health.oldest_unsent_at)],
    ['LTE電波', <LteSignal key="l" rssi={health.lte_rssi} />],
    ['ディスク空き', health.disk_free_bytes === null ? '--' : `${formatBytes(health.disk_free_bytes)} / ${formatBytes(health.disk_total_bytes)}`],
    ['Bluetooth', health.ble_adapter ? (BLE_ADAPTER_LABELS[health.ble_adapter] ?? health.ble_adapter) : '--'],
    ['受信センサ数', health.sensors_heard === null ? '--' : `${health.sensors_heard}台`],
    ['欠損件数（累計）', health.dropped_total === null ? '--' : `${health.dropped_total.toLocaleString('ja-JP')}件`],
  ];
  return (
    <section className="card p-5" aria-labelledby="gateway-health-title" data-testid="gateway-health">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="gateway-health-title" className="flex items-center gap-2 text-base font-semibold text-slate-800">
          <GatewayIcon className="h-5 w-5 text-brand-600" />
          ゲートウェイの状態
        </h2>
        {health.buffer_alarm && <span className="rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-medium text-red-700">バッファ残量低下</span>}
        {health.loss_alarm && <span className="rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-medium text-red-700">データ欠損</span>}
      </div>
      {health.reported_at === null && <p className="mt-3 text-sm text-slate-500">ゲートウェイからのヘルス報告はまだありません。</p>}
      <dl className="mt-4 grid grid-cols-1 gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {rows.map(([label, value]) => (
          <div key={label} className="flex min-w-0 items-center gap-3">
            <dt className="w-28 shrink-0 text-slate-500">{label}</dt>
            <dd className="min-w-0 text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
