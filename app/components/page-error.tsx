import { isRouteErrorResponse, useRevalidator, useRouteError } from '@remix-run/react';
import { StorePage } from '~/components/page-kit/store-page';
import { ja } from '~/domain/texts/ja';

/**
 * A page's error boundary: the page's title and what went wrong, inside the layouts that did
 * load (the header, and on store pages the store sidebar), with a button that loads the page
 * again. A 403 says the viewer may not see the page (`forbiddenHint` says who may).
 */
export function PageError({ title, forbiddenHint = ja.pageError.forbiddenHint }: { title: string; forbiddenHint?: string }) {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const status = isRouteErrorResponse(error) ? error.status : null;
  const forbidden = status === 403;
  return (
    <StorePage title={title}>
      <div role="alert" className="card px-6 py-12 text-center">
        <p className="text-base font-semibold text-slate-800">{forbidden ? ja.pageError.forbidden : ja.pageError.title}</p>
        <p className="mt-2 text-sm text-slate-500">
          {forbidden ? forbiddenHint : ja.pageError.retryLater}
          {status ? ` (${status})` : ''}
        </p>
        {!forbidden && (
          <button type="button" className="btn-secondary mt-5" disabled={revalidator.state !== 'idle'} onClick={() => revalidator.revalidate()}>
            {ja.pageError.retry}
          </button>
        )}
      </div>
    </StorePage>
  );
}
