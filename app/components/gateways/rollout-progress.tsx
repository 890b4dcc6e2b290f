import { type RolloutView, UPDATE_STATE_LABELS } from '~/domain/gateway-rollout';
import { formatDateTime } from '~/domain/japan-time';

// The fleet list's update section (decision 291): each store group's rollout, each wave's
// progress and the boxes that rolled back by themselves, with why.

export function RolloutProgress({ rollouts }: { rollouts: readonly RolloutView[] }) {
  if (rollouts.length === 0) return null;
  return (
    <section className="card mb-4 px-4 py-3 text-sm" aria-label="ゲートウェイ更新の状況">
      <h2 className="mb-2 font-bold text-slate-800">ゲートウェイ更新の状況</h2>
      {rollouts.map((rollout) => (
        <div key={rollout.storegroupId} className="mb-3">
          <p className="text-slate-700">
            {rollout.storegroupName}：バージョン {rollout.version}（第1陣 {rollout.wavePercent}%、開始 {formatDateTime(new Date(rollout.startedAt))}）
            {rollout.paused && <span className="ml-2 rounded bg-amber-100 px-2 py-0.5 text-amber-800">一時停止中</span>}
          </p>
          <table className="mt-1 w-full max-w-xl text-left">
            <thead>
              <tr className="text-slate-500">
                <th className="py-1">陣</th>
                <th>{UPDATE_STATE_LABELS.updated}</th>
                <th>{UPDATE_STATE_LABELS.pending}</th>
                <th>{UPDATE_STATE_LABELS.failed}</th>
                <th>配信</th>
              </tr>
            </thead>
            <tbody>
              {rollout.waves.map((wave) => (
                <tr key={wave.wave}>
                  <td className="py-1">第{wave.wave}陣</td>
                  <td>{wave.updated}</td>
                  <td>{wave.pending}</td>
                  <td className={wave.failed > 0 ? 'font-bold text-red-700' : undefined}>{wave.failed}</td>
                  <td>{wave.open ? '配信中' : '待機'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rollout.gateways
            .filter((gateway) => gateway.state === 'failed')
            .map((gateway) => (
              <p key={gateway.storeId} className="mt-1 text-red-700">
                {gateway.storeNo} {gateway.storeName}：{gateway.failure}（{gateway.runningVersion ?? '—'} で稼働中）
              </p>
            ))}
        </div>
      ))}
    </section>
  );
}
