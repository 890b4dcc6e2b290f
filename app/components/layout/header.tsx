import { Form, Link, useFetcher } from '@remix-run/react';
import { useState } from 'react';
import { BellIcon, DashboardIcon, GatewayIcon, MasterIcon, MenuIcon, SystemIcon, UserIcon } from '~/components/icons';
import { formatDateTime, parseCompact } from '~/domain/japan-time';
import { NOTICE_POPUP_STEP } from '~/domain/notices';
import { ACCOUNT_MENU_LINKS, HEADER_LINKS, HEADER_MENUS, type MenuLink, type Permission, visibleLinks, visibleMenu } from '~/domain/roles';
import { appUrl, resourceUrl } from '~/domain/urls';
import type { Notice } from '~/domain/notice-schemas';
import { QUIET_HOURS_TEXTS } from '~/domain/quiet-hours';
import { PopupMenu } from './popup-menu';

export interface HeaderViewer {
  userName: string;
  mailaddress1: string | null;
}

const MENU_ICONS: Record<string, React.ReactNode> = { master: <MasterIcon className="h-5 w-5" />, system: <SystemIcon className="h-5 w-5" />, gateways: <GatewayIcon className="h-5 w-5" /> };

export function Header({ viewer, permissions, showDashboardLink }: { viewer: HeaderViewer; permissions: Record<Permission, boolean>; showDashboardLink: boolean }) {
  const menus = visibleMenu(HEADER_MENUS, permissions);
  const accountLinks = visibleLinks(ACCOUNT_MENU_LINKS, permissions);
  const headerLinks = visibleLinks(HEADER_LINKS, permissions);
  // Below 1024 px the menus and the account fold into one labelled メニュー (issue 11): at 768 px
  // the full row of labels would wrap.
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-1 bg-brand-900 px-2 shadow sm:gap-2 sm:px-4">
      <Link to={appUrl.dashboard} className="mr-1 flex min-h-10 items-center gap-2 whitespace-nowrap text-lg font-bold tracking-tight text-white sm:mr-2">
        <img src="/favicon.svg" alt="" className="h-7 w-7" />
        <span className="max-[359px]:sr-only">On-Reco</span>
      </Link>
      {showDashboardLink && (
        <Link to={appUrl.dashboard} className="hidden items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white lg:flex">
          <DashboardIcon className="h-5 w-5" />
          ダッシュボード
        </Link>
      )}
      {headerLinks.map((link) => (
        <Link key={link.key} to={link.to} className="hidden items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white lg:flex">
          {link.label}
        </Link>
      ))}
      <nav className="ml-auto flex items-center gap-1" aria-label="メニュー">
        <div className="hidden lg:contents">
          {menus.map((menu) => (
            <PopupMenu key={menu.key} label={menu.label} icon={MENU_ICONS[menu.key]}>
              <MenuLinks links={menu.links} />
            </PopupMenu>
          ))}
        </div>
        <NotificationsPopup />
        <div className="hidden lg:block">
          <PopupMenu label={`${viewer.userName} 様`} icon={<UserIcon className="h-5 w-5" />}>
            <AccountLinks viewer={viewer} links={accountLinks} />
          </PopupMenu>
        </div>
        <div className="lg:hidden">
          <PopupMenu label="メニュー" icon={<MenuIcon className="h-5 w-5" />}>
            <div className="max-h-[calc(100dvh-6rem)] w-full overflow-y-auto sm:w-72">
              {showDashboardLink && <MenuLinks links={[{ key: 'dashboard', label: 'ダッシュボード', to: appUrl.dashboard }]} />}
              {headerLinks.length > 0 && <MenuLinks links={headerLinks} />}
              {menus.map((menu) => (
                <section key={menu.key} aria-label={menu.label} className="border-t border-slate-100 py-1">
                  <h3 className="flex items-center gap-2 px-4 pt-2 text-xs font-semibold text-slate-500">
                    {MENU_ICONS[menu.key]}
                    {menu.label}
                  </h3>
                  <MenuLinks links={menu.links} />
                </section>
              ))}
              <section aria-label="アカウント" className="border-t border-slate-100 py-1">
                <AccountLinks viewer={viewer} links={accountLinks} />
              </section>
            </div>
          </PopupMenu>
        </div>
      </nav>
    </header>
  );
}

/** A menu's links as a list; `children`: more items (<li>) at its end. */
function MenuLinks({ links, children }: { links: readonly Pick<MenuLink, 'key' | 'label' | 'to'>[]; children?: React.ReactNode }) {
  return (
    <ul>
      {links.map((link) => (
        <li key={link.key}>
          <Link to={link.to} className="menu-item">
            {link.label}
          </Link>
        </li>
      ))}
      {children}
    </ul>
  );
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
      <div className="w-full sm:w-80">
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

/** The signed-in user and their links: the account menu, and the end of the phone menu. */
function AccountLinks({ viewer, links }: { viewer: HeaderViewer; links: readonly MenuLink[] }) {
  return (
    <>
      <div className="px-4 py-2">
        <p className="font-semibold text-slate-800">{viewer.userName} 様</p>
        <p className="text-xs text-slate-500">{viewer.mailaddress1 ?? '--'}</p>
      </div>
      <MenuLinks links={links}>
        <li>
          <a href={appUrl.manuals} target="_blank" rel="noopener noreferrer" className="menu-item">
            利用規約・マニュアル
          </a>
        </li>
        <li>
          <Link to={appUrl.passwordEdit} className="menu-item">
            パスワード変更
          </Link>
        </li>
        <li>
          <Link to={appUrl.quietHoursEdit} className="menu-item">
            {QUIET_HOURS_TEXTS.title}
          </Link>
        </li>
        <li>
          <Form method="post" action={appUrl.logout}>
            <button type="submit" className="menu-item text-red-600">
              ログアウト
            </button>
          </Form>
        </li>
      </MenuLinks>
    </>
  );
}
