import { Form, Link, useFetcher } from '@remix-run/react';
import { useState } from 'react';
import { BellIcon, DashboardIcon, GatewayIcon, MasterIcon, SystemIcon, UserIcon } from '~/components/icons';
import { formatDateTime, parseCompact } from '~/domain/japan-time';
import { NOTICE_POPUP_STEP } from '~/domain/notice-schemas';
import { ACCOUNT_MENU_LINKS, HEADER_MENUS, type MenuLink, type Permission, visibleLinks, visibleMenu } from '~/domain/roles';
import { appUrl, resourceUrl } from '~/domain/urls';
import type { Notice } from '~/domain/notice-schemas';
import { PopupMenu } from './popup-menu';

export interface HeaderViewer {
  userName: string;
  mailaddress1: string | null;
}

const MENU_ICONS: Record<string, React.ReactNode> = { master: <MasterIcon className="h-5 w-5" />, system: <SystemIcon className="h-5 w-5" />, gateways: <GatewayIcon className="h-5 w-5" /> };

export function Header({ viewer, permissions, showDashboardLink }: { viewer: HeaderViewer; permissions: Record<Permission, boolean>; showDashboardLink: boolean }) {
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-2 bg-brand-900 px-4 shadow">
      <Link to={appUrl.dashboard} className="mr-2 flex items-center gap-2 text-lg font-bold tracking-tight text-white">
        <img src="/favicon.svg" alt="" className="h-7 w-7" />
        On-Reco
      </Link>
      {showDashboardLink && (
        <Link to={appUrl.dashboard} className="flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white">
          <DashboardIcon className="h-5 w-5" />
          ダッシュボード
        </Link>
      )}
      <nav className="ml-auto flex items-center gap-1" aria-label="メニュー">
        {visibleMenu(HEADER_MENUS, permissions).map((menu) => (
          <PopupLinks key={menu.key} label={menu.label} icon={MENU_ICONS[menu.key]} links={menu.links} />
        ))}
        <NotificationsPopup />
        <AccountPopup viewer={viewer} links={visibleLinks(ACCOUNT_MENU_LINKS, permissions)} />
      </nav>
    </header>
  );
}

function PopupLinks({ label, icon, links }: { label: string; icon: React.ReactNode; links: readonly MenuLink[] }) {
  return (
    <PopupMenu label={label} icon={icon}>
      <MenuLinks links={links} />
    </PopupMenu>
  );
}

function MenuLinks({ links }: { links: readonly MenuLink[] }) {
  return links.map((link) => (
    <Link key={link.key} to={link.to} className="menu-item" role="menuitem">
      {link.label}
    </Link>
  ));
}

/** The notifications popup loads the newest 10 when opened, and 10 more per "もっと見る". */
function NotificationsPopup() {
  const fetcher = useFetcher<Notice[]>();
  const [steps, setSteps] = useState(1);
  const load = (count: number) => fetcher.load(resourceUrl.notices(count * NOTICE_POPUP_STEP));
  const notices = fetcher.data ?? [];
  const maybeMore = notices.length === steps * NOTICE_POPUP_STEP;
  return (
    <PopupMenu label="お知らせ" icon={<BellIcon className="h-5 w-5" />} onOpen={() => load(steps)}>
      <div className="w-80 max-w-[90vw]">
        <p className="border-b border-slate-100 px-4 py-2 text-xs font-semibold text-slate-500">お知らせ</p>
        <ul className="max-h-96 overflow-y-auto">
          {notices.map((notice) => (
            <li key={notice.notice_id} className="border-b border-slate-100 px-4 py-2">
              <p className="text-[11px] text-slate-400">{formatDateTime(parseCompact(notice.created_datetime)!)}</p>
              <p className="font-semibold text-slate-700">{notice.title}</p>
              <p className="whitespace-pre-wrap text-xs text-slate-600">{notice.content}</p>
            </li>
          ))}
          {fetcher.state === 'idle' && fetcher.data && notices.length === 0 && <li className="px-4 py-3 text-slate-500">お知らせはありません</li>}
          {fetcher.state === 'loading' && <li className="px-4 py-3 text-slate-400">読み込み中…</li>}
        </ul>
        {maybeMore && fetcher.state === 'idle' && (
          <button
            type="button"
            className="w-full px-4 py-2 text-center text-sm font-medium text-brand-600 hover:bg-slate-50"
            onClick={() => {
              setSteps(steps + 1);
              load(steps + 1);
            }}
          >
            もっと見る
          </button>
        )}
      </div>
    </PopupMenu>
  );
}

function AccountPopup({ viewer, links }: { viewer: HeaderViewer; links: readonly MenuLink[] }) {
  return (
    <PopupMenu label={`${viewer.userName} 様`} icon={<UserIcon className="h-5 w-5" />}>
      <div className="border-b border-slate-100 px-4 py-3">
        <p className="font-semibold text-slate-800">{viewer.userName} 様</p>
        <p className="text-xs text-slate-500">{viewer.mailaddress1 ?? '--'}</p>
      </div>
      <MenuLinks links={links} />
      <a href={appUrl.manuals} target="_blank" rel="noopener noreferrer" className="menu-item" role="menuitem">
        利用規約・マニュアル
      </a>
      <Link to={appUrl.passwordEdit} className="menu-item" role="menuitem">
        パスワード変更
      </Link>
      <Form method="post" action={appUrl.logout}>
        <button type="submit" className="menu-item text-red-600" role="menuitem">
          ログアウト
        </button>
      </Form>
    </PopupMenu>
  );
}

