import { NavLink } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { ChartIcon, ChevronIcon, ClipboardCheckIcon, GearIcon, HistoryIcon, MapIcon, ReportIcon, StoreIcon, ThermometerIcon } from '~/components/icons';
import { type Permission, storeMenu, visibleMenu } from '~/domain/roles';

type Fold = 'auto' | 'open' | 'folded';
const FOLD_KEY = 'onreco.sidebarFolded';

interface SidebarProps {
  storeId: string;
  permissions: Record<Permission, boolean>;
}

const ICONS: Record<string, typeof ChartIcon> = {
  sensors: ThermometerIcon,
  alertHistory: HistoryIcon,
  graphs: ChartIcon,
  reports: ReportIcon,
  diagram: MapIcon,
  settings: GearIcon,
  management: StoreIcon,
  haccp: ClipboardCheckIcon,
};

/**
 * The collapsible store sidebar (192 px open, 64 px folded). It folds by itself at a window
 * width of 1024 px or less, unless the user chose otherwise; the choice is remembered.
 */
export function StoreSidebar({ storeId, permissions }: SidebarProps) {
  const [fold, setFold] = useState<Fold>('auto');
  // The remembered choice is a browser-only preference, read once after hydration.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setFold((localStorage.getItem(FOLD_KEY) as Fold | null) ?? 'auto'), []);
  const choose = (next: Fold) => {
    setFold(next);
    localStorage.setItem(FOLD_KEY, next);
  };
  const width = { auto: 'w-48 max-[1024px]:w-16', open: 'w-48', folded: 'w-16' }[fold];
  const labelClass = { auto: 'max-[1024px]:sr-only', open: '', folded: 'sr-only' }[fold];
  // Folded, each icon keeps a small visible caption (issue 33: an unlabeled rail icon was not found).
  const rail = {
    auto: { link: 'max-[1024px]:flex-col max-[1024px]:gap-0.5 max-[1024px]:px-1', label: 'max-[1024px]:text-center max-[1024px]:text-[10px] max-[1024px]:leading-tight' },
    open: { link: '', label: '' },
    folded: { link: 'flex-col gap-0.5 px-1', label: 'text-center text-[10px] leading-tight' },
  }[fold];
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
        {visibleMenu(storeMenu(storeId), permissions).map((section) => (
          <SidebarSection key={section.key} title={section.label} labelClass={labelClass}>
            {section.links.map((link) => {
              const Icon = ICONS[link.key];
              return <SidebarLink key={link.key} to={link.to} label={link.label} icon={<Icon className="h-5 w-5 shrink-0" />} rail={rail} alsoActiveOn={link.alsoActiveOn} />;
            })}
          </SidebarSection>
        ))}
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

function SidebarLink({ to, label, icon, rail, alsoActiveOn = [] }: { to: string; label: string; icon: React.ReactNode; rail: { link: string; label: string }; alsoActiveOn?: readonly string[] }) {
  return (
    <li>
      <NavLink
        to={to}
        title={label}
        className={({ isActive }) =>
          `mx-2 flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${rail.link} ${
            isActive || (typeof window !== 'undefined' && alsoActiveOn.includes(window.location.pathname))
              ? 'bg-brand-50 text-brand-700'
              : 'text-slate-600 hover:bg-slate-100'
          }`
        }
      >
        {icon}
        <span className={rail.label}>{label}</span>
      </NavLink>
    </li>
  );
}
