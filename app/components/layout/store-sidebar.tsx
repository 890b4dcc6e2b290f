import { NavLink } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { ChartIcon, ChevronIcon, GearIcon, HistoryIcon, MapIcon, ReportIcon, StoreIcon, ThermometerIcon } from '~/components/icons';

type Fold = 'auto' | 'open' | 'folded';
const FOLD_KEY = 'onreco.sidebarFolded';

interface SidebarProps {
  storeId: string;
  canOpenSettings: boolean;
  canManageStore: boolean;
}

/**
 * The collapsible store sidebar (192 px open, 64 px folded). It folds by itself at a window
 * width of 1024 px or less, unless the user chose otherwise; the choice is remembered.
 */
export function StoreSidebar({ storeId, canOpenSettings, canManageStore }: SidebarProps) {
  const [fold, setFold] = useState<Fold>('auto');
  // The remembered choice is a browser-only preference, read once after hydration.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setFold((localStorage.getItem(FOLD_KEY) as Fold | null) ?? 'auto'), []);
  const choose = (next: Fold) => {
    setFold(next);
    localStorage.setItem(FOLD_KEY, next);
  };
  const base = `/stores/${encodeURIComponent(storeId)}`;
  const general = [
    [`${base}/temp_managements_image`, '温度管理', ThermometerIcon, [`${base}/temp_managements_list`]],
    [`${base}/warning_histories`, '警報履歴', HistoryIcon, []],
    [`${base}/temp_graphs`, '温度グラフ', ChartIcon, []],
    [`${base}/reports`, 'レポート', ReportIcon, []],
    [`${base}/sensor_diagrams/show`, 'センサ配置図', MapIcon, []],
  ] as const;
  const width = { auto: 'w-48 max-[1024px]:w-16', open: 'w-48', folded: 'w-16' }[fold];
  const labelClass = { auto: 'max-[1024px]:sr-only', open: '', folded: 'sr-only' }[fold];
  const isFolded = () => fold === 'folded' || (fold === 'auto' && window.matchMedia('(max-width: 1024px)').matches);
  return (
    <aside aria-label="店舗メニュー" className={`${width} shrink-0 border-r border-slate-200 bg-white transition-[width] duration-200`} data-fold={fold}>
      <div className="sticky top-14 flex flex-col py-3">
        <button
          type="button"
          className="mx-3 mb-2 flex items-center justify-center rounded-md p-2 text-slate-500 hover:bg-slate-100"
          aria-label="サイドバーの開閉"
          onClick={() => choose(isFolded() ? 'open' : 'folded')}
        >
          <ChevronIcon className={`h-5 w-5 ${fold === 'folded' ? 'rotate-180' : fold === 'auto' ? 'max-[1024px]:rotate-180' : ''}`} />
        </button>
        <SidebarSection title="一般" labelClass={labelClass}>
          {general.map(([to, label, Icon, also]) => (
            <SidebarLink key={to} to={to} label={label} icon={<Icon className="h-5 w-5 shrink-0" />} labelClass={labelClass} alsoActiveOn={also} />
          ))}
        </SidebarSection>
        {(canOpenSettings || canManageStore) && (
          <SidebarSection title="設定" labelClass={labelClass}>
            {canOpenSettings && <SidebarLink to={`${base}/sensors/show`} label="設定" icon={<GearIcon className="h-5 w-5 shrink-0" />} labelClass={labelClass} />}
            {canManageStore && (
              <SidebarLink to={`${base}/master_managements`} label="店舗管理" icon={<StoreIcon className="h-5 w-5 shrink-0" />} labelClass={labelClass} />
            )}
          </SidebarSection>
        )}
      </div>
    </aside>
  );
}

function SidebarSection({ title, labelClass, children }: { title: string; labelClass: string; children: React.ReactNode }) {
  return (
    <nav aria-label={title} className="mb-3">
      <p className={`px-4 pb-1 text-[11px] font-semibold uppercase tracking-wider text-slate-400 ${labelClass}`}>{title}</p>
      <ul>{children}</ul>
    </nav>
  );
}

function SidebarLink({ to, label, icon, labelClass, alsoActiveOn = [] }: { to: string; label: string; icon: React.ReactNode; labelClass: string; alsoActiveOn?: readonly string[] }) {
  return (
    <li>
      <NavLink
        to={to}
        title={label}
        className={({ isActive }) =>
          `mx-2 flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${
            isActive || (typeof window !== 'undefined' && alsoActiveOn.includes(window.location.pathname))
              ? 'bg-brand-50 text-brand-700'
              : 'text-slate-600 hover:bg-slate-100'
          }`
        }
      >
        {icon}
        <span className={labelClass}>{label}</span>
      </NavLink>
    </li>
  );
}
