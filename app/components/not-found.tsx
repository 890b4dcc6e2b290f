import { Link } from '@remix-run/react';
import { appUrl } from '~/domain/urls';

/** "Page Not Found" with the way back, for unknown paths and stores that cannot be loaded. */
export function NotFound() {
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-4 p-12 text-center">
      <p className="text-6xl font-bold text-slate-400">404</p>
      <h1 className="text-2xl font-bold text-slate-700">Page Not Found</h1>
      <p className="text-sm text-slate-500">お探しのページは見つかりませんでした。</p>
      <Link to={appUrl.dashboard} className="btn-primary">
        ダッシュボードへ戻る
      </Link>
    </main>
  );
}
