import { Link } from '@remix-run/react';
import { EditIcon, FurnitureIcon, PlusIcon } from '~/components/icons';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { alertFilterText } from '~/domain/alert-filter';
import { formatDateTime, parseCompact } from '~/domain/japan-time';
import { type SensorListItem, type UnregisteredSensor, displayDate } from '~/domain/sensor-settings';
import { storeUrl } from '~/domain/urls';
import { useStackedTable } from '~/components/page-kit';

// The tables of the sensors show page (001 §2): sensor info, furniture info, user info, and the
// unregistered sensors a store's gateway hears (issue 12, store management only).

const MISSING = '-';
const stamp = (value: string | null) => {
  const at = value ? parseCompact(value) : null;
  return at ? formatDateTime(at) : MISSING;
};
const minutes = (value: number | null) => (value === null ? MISSING : `${value}分`);
const limitText = (value: number | null) => (value === null ? '' : value.toFixed(1));
const th = 'px-3 py-2 font-semibold whitespace-nowrap';
const td = 'px-3 py-2 align-middle';

export function SensorInfoTable({ storeId, sensors }: { storeId: string; sensors: readonly SensorListItem[] }) {
  const stack = useStackedTable();
  if (sensors.length === 0) return <p className="card px-4 py-12 text-center text-sm text-slate-500">センサが登録されていません。</p>;
  return (
    <div className="card overflow-x-auto">
      <table ref={stack} className="table-stack w-full text-sm" aria-label="センサ情報">
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            <th scope="col" className={th}>種別</th>
            <th scope="col" className={th}>センサ名</th>
            <th scope="col" className={`${th} text-right`}>閾値 (℃)</th>
            <th scope="col" className={`${th} text-right`}>ガード / スヌーズ</th>
            <th scope="col" className={th}>シリアルNo / 型式 / 種類</th>
            <th scope="col" className={th}>設置日 / 撤去日</th>
            <th scope="col" className={th}>最終計測日時</th>
            <th scope="col" className={`${th} text-right`}>電池 / 電波</th>
            <th scope="col" className={th}><span className="sr-only">編集</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sensors.map((sensor) => (
            <tr key={sensor.equipment_id} data-equipment-id={sensor.equipment_id} className={sensor.disp_flg === 1 ? '' : 'text-slate-400'}>
              <td className={td}>
                <FurnitureIcon kind={sensor.icon_kind} className="h-7 w-7 text-slate-600" title={furnitureLabel(sensor.icon_kind)} />
              </td>
              <td className={`${td} font-medium`}>
                {sensor.equipment_name}
                {sensor.disp_flg === 1 ? null : <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-500">非表示</span>}
              </td>
              <td className={`${td} whitespace-nowrap text-right tabular-nums`}>
                {sensor.lower_limit === null ? MISSING : `${limitText(sensor.lower_limit)} 〜 ${limitText(sensor.upper_limit)}`}
              </td>
              <td className={`${td} whitespace-nowrap text-right tabular-nums`}>
                {minutes(sensor.guard_time)} / {minutes(sensor.snoozing_time)}
              </td>
              <td className={td}>
                <div className="font-mono text-xs">{sensor.serial_no}</div>
                <div className="text-xs text-slate-500">{sensor.model_name ?? MISSING} / {sensor.equipmentkind_name ?? MISSING}</div>
              </td>
              <td className={`${td} whitespace-nowrap text-xs tabular-nums`}>
                <div>{displayDate(sensor.installation_datetime)}</div>
                <div className="text-slate-500">{displayDate(sensor.removal_datetime)}</div>
              </td>
              <td className={`${td} whitespace-nowrap text-xs tabular-nums`}>{stamp(sensor.last_measure_datetime)}</td>
              <td className={`${td} whitespace-nowrap text-right text-xs tabular-nums`}>
                {sensor.last_battery === null ? MISSING : `${sensor.last_battery}%`} / {sensor.last_receive_sensitivity === null ? MISSING : `${sensor.last_receive_sensitivity}dBm`}
              </td>
              <td className={`${td} text-right`}>
                <Link to={storeUrl.sensorEdit(storeId, sensor.equipment_id)} className="btn-secondary whitespace-nowrap px-3 py-1.5 text-xs" aria-label={`${sensor.equipment_name}を編集`}>
                  <EditIcon className="h-4 w-4" />
                  編集
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function UnregisteredSensors({ storeId, sensors }: { storeId: string; sensors: readonly UnregisteredSensor[] }) {
  const stack = useStackedTable();
  return (
    <section className="card mt-6" aria-label="未登録センサ">
      <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-700">未登録センサ</h2>
      {sensors.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-500">ゲートウェイが受信している未登録のセンサはありません。</p>
      ) : (
        <table ref={stack} className="table-stack w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th scope="col" className={th}>BLEアドレス</th>
              <th scope="col" className={th}>形式</th>
              <th scope="col" className={`${th} text-right`}>温度</th>
              <th scope="col" className={`${th} text-right`}>電波</th>
              <th scope="col" className={th}>最終受信日時</th>
              <th scope="col" className={th}><span className="sr-only">登録</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sensors.map((sensor) => (
              <tr key={sensor.serial_no} data-serial-no={sensor.serial_no}>
                <td className={`${td} font-mono text-xs`}>{sensor.serial_no}</td>
                <td className={`${td} text-xs`}>{sensor.format}</td>
                <td className={`${td} text-right tabular-nums`}>{sensor.temperature === null ? MISSING : `${sensor.temperature.toFixed(1)}℃`}</td>
                <td className={`${td} text-right tabular-nums`}>{sensor.receive_sensitivity === null ? MISSING : `${sensor.receive_sensitivity}dBm`}</td>
                <td className={`${td} text-xs tabular-nums`}>{stamp(sensor.heard_at)}</td>
                <td className={`${td} text-right`}>
                  <Link to={storeUrl.sensorRegister(storeId, sensor.serial_no)} className="btn-primary whitespace-nowrap px-3 py-1.5 text-xs" aria-label={`${sensor.serial_no}を登録`}>
                    <PlusIcon className="h-4 w-4" />
                    登録
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function FurnitureTable({ sensors }: { sensors: readonly SensorListItem[] }) {
  const stack = useStackedTable();
  const groups = new Map<string, { name: string; serial: string | null; sensors: SensorListItem[] }>();
  for (const sensor of sensors) {
    const name = sensor.measure_target_name ?? sensor.measure_target_equipment_kind_name ?? '(未設定)';
    const key = `${name}\u0000${sensor.measure_target_serial_no ?? ''}`;
    const group = groups.get(key) ?? { name, serial: sensor.measure_target_serial_no, sensors: [] };
    group.sensors.push(sensor);
    groups.set(key, group);
  }
  if (groups.size === 0) return <p className="card px-4 py-12 text-center text-sm text-slate-500">什器が登録されていません。</p>;
  return (
    <div className="card overflow-x-auto">
      <table ref={stack} className="table-stack w-full text-sm" aria-label="什器情報">
        <thead className="bg-slate-50 text-left text-xs text-slate-500">
          <tr>
            <th scope="col" className={th}>什器名</th>
            <th scope="col" className={th}>什器シリアルNo</th>
            <th scope="col" className={th}>関連センサ</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {[...groups.values()].map((group) => (
            <tr key={`${group.name}-${group.serial}`}>
              <td className={`${td} font-medium`}>{group.name}</td>
              <td className={`${td} font-mono text-xs`}>{group.serial ?? MISSING}</td>
              <td className={td}>
                <ul className="flex flex-wrap gap-x-4 gap-y-1">
                  {group.sensors.map((sensor) => (
                    <li key={sensor.equipment_id} className="inline-flex items-center gap-1.5">
                      <FurnitureIcon kind={sensor.icon_kind} className="h-5 w-5 text-slate-600" />
                      {sensor.equipment_name}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface ShowUser {
  user_id: number;
  login_id: string;
  user_name: string;
  tel_no: string | null;
  mailaddress1: string | null;
  mailaddress2: string | null;
  mailaddress3: string | null;
  language: 'JP' | 'US';
  valid_flg: number;
  alert_filter: number;
}


export function UsersTable({ storeId, users }: { storeId: string; users: readonly ShowUser[] }) {
  const stack = useStackedTable();
  return (
    <div className="space-y-3">
      <div className="flex justify-end">
        <Link to={storeUrl.userCreate(storeId)} className="btn-primary">
          <PlusIcon className="h-4 w-4" />
          新規ユーザー
        </Link>
      </div>
      <div className="card overflow-x-auto">
        <table ref={stack} className="table-stack w-full text-sm" aria-label="ユーザー情報">
          <thead className="bg-slate-50 text-left text-xs text-slate-500">
            <tr>
              <th scope="col" className={th}>ユーザー名 / ID</th>
              <th scope="col" className={th}>電話番号</th>
              <th scope="col" className={th}>メールアドレス</th>
              <th scope="col" className={th}>言語</th>
              <th scope="col" className={th}>有効</th>
              <th scope="col" className={th}>警報通知</th>
              <th scope="col" className={th}><span className="sr-only">編集</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((user) => (
              <tr key={user.user_id} data-user-id={user.user_id}>
                <td className={td}>
                  <div className="font-medium">{user.user_name}</div>
                  <div className="text-xs text-slate-500">{user.login_id}</div>
                </td>
                <td className={`${td} tabular-nums`}>{user.tel_no ?? MISSING}</td>
                <td className={`${td} text-xs`}>
                  {[user.mailaddress1, user.mailaddress2, user.mailaddress3].filter(Boolean).map((mail) => (
                    <div key={mail}>{mail}</div>
                  ))}
                </td>
                <td className={td}>{user.language === 'US' ? 'English' : '日本語'}</td>
                <td className={td}>
                  <input type="checkbox" checked={user.valid_flg === 1} readOnly disabled aria-label="有効" className="h-4 w-4" />
                </td>
                <td className={td}>{alertFilterText(user.alert_filter, MISSING)}</td>
                <td className={`${td} text-right`}>
                  <Link to={storeUrl.userEdit(storeId, user.user_id)} className="btn-secondary whitespace-nowrap px-3 py-1.5 text-xs" aria-label={`${user.user_name}を編集`}>
                    <EditIcon className="h-4 w-4" />
                    編集
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
