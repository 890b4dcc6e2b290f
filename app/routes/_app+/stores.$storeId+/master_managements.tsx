import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { Page } from '~/components/page';
import { PageError } from '~/components/page-error';
import { StatusBar } from '~/components/status-bar';
import { GatewayExchangeCard } from '~/components/store-management/gateway-exchange-card';
import { GatewayHealthCard } from '~/components/store-management/gateway-health-card';
import { GatewayPinCard } from '~/components/store-management/gateway-pin-card';
import { RemovalCard } from '~/components/store-management/removal-card';
import { FailureDialog } from '~/components/store-management/result-dialog';
import { StoreInfoCard } from '~/components/store-management/store-info-card';
import { WorkingStateBadge } from '~/components/store-management/working-state-badge';
import { getDb } from '~/db/db.server';
import { GatewayExchangeSchema, RemovalRequestSchema, STORE_MESSAGES } from '~/domain/store-schemas';
import { canExchangeGateway, canRemoveStore, isRemovedStore } from '~/domain/working-state';
import { getCurrentPin, getStoreInfo } from '~/models/store-management.server';
import { getStoreGatewayHealth } from '~/models/gateway-health.server';
import { requireRole, requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { type StoreWriteFailure, exchangeGateway, reissuePin, removeGateway } from '~/services/store-gateway.server';
import { appUrl } from '~/domain/urls';

// /stores/{store_id}/master_managements (000 §2 Store management): the store's info with the
// edit button, the gateway PIN with reissue, gateway exchange and removal. Administrators and
// maintenance only (others 403); a store the viewer may not see goes to /not_found.

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `店舗管理${data ? ` - ${data.store.store_name}` : ''} | On-Reco` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'storeManagement');
  const db = getDb();
  // Scoped by the viewer: null for a store that does not exist or is not theirs.
  const store = await getStoreInfo(db, viewer, params.storeId ?? '');
  if (!store) throw redirect(appUrl.notFound);
  const [pin, health] = await Promise.all([getCurrentPin(db, store.store_id, new Date()), getStoreGatewayHealth(db, viewer, store.store_id)]);
  return json({
    store,
    pin,
    health,
    canExchange: canExchangeGateway(store.working_state),
    canRemove: canRemoveStore(store.working_state, store.gateway_info),
    confirmingRemoval: new URL(request.url).searchParams.get('confirm') === 'removal',
  });
}

type Intent = 'reissue_pin' | 'exchange' | 'removal';
type ActionResult = { intent: Intent | null; ok: boolean; message?: string; fields?: Record<string, string>; at: number };

const failureText = (failure: StoreWriteFailure) =>
  failure.reason === 'not_found' ? '店舗が見つかりません。' : failure.reason === 'forbidden' ? 'この操作は許可されていません。' : failure.message;

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params, 'storeManagement');
  const form = Object.fromEntries(await request.formData());
  const db = getDb();
  const now = new Date();
  const answer = (result: Omit<ActionResult, 'at'>, status = 200) => json<ActionResult>({ ...result, at: now.getTime() }, { status });
  const outcome = (intent: Intent, result: { ok: true } | StoreWriteFailure) =>
    result.ok ? answer({ intent, ok: true }) : answer({ intent, ok: false, message: failureText(result) }, result.reason === 'not_found' ? 404 : 409);
  switch (form.intent) {
    case 'reissue_pin':
      return outcome('reissue_pin', await reissuePin(db, viewer, storeId, now));
    case 'exchange': {
      const parsed = GatewayExchangeSchema.safeParse(form);
      // A blank gateway info changes nothing (000 §5); the field says why.
      if (!parsed.success) return answer({ intent: 'exchange', ok: false, fields: fieldErrors(parsed.error) }, 400);
      const result = await exchangeGateway(db, viewer, storeId, parsed.data.gateway_info, now);
      if (!result.ok && result.reason === 'duplicate') return answer({ intent: 'exchange', ok: false, message: result.message }, 400);
      return outcome('exchange', result);
    }
    case 'removal': {
      const parsed = RemovalRequestSchema.safeParse({ store_id: storeId, gateway_info: form.gateway_info });
      if (!parsed.success) return answer({ intent: 'removal', ok: false, message: STORE_MESSAGES.banner }, 400);
      return outcome('removal', await removeGateway(db, viewer, storeId, parsed.data.gateway_info, now));
    }
    default:
      return answer({ intent: null, ok: false, message: '不明な操作です。' }, 400);
  }
}

const SUCCESS: Record<Intent, string> = {
  reissue_pin: 'PINコードを発行しました。',
  exchange: 'ゲートウェイを交換しました。新しいゲートウェイの初回通信を待っています。',
  removal: '撤去しました。',
};

const FAILURE_TITLE: Record<Intent, string> = {
  reissue_pin: 'PINコードの発行に失敗しました',
  exchange: STORE_MESSAGES.exchangeFailed,
  removal: STORE_MESSAGES.removalFailed,
};

export default function StoreManagementPage() {
  const { store, pin, health, canExchange, canRemove, confirmingRemoval } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname } = useLocation();
  // The action's answer arrives before the page's data is reloaded: say "done" only once the
  // page shows the new state.
  const settled = useNavigation().state === 'idle';
  const removed = isRemovedStore(store.working_state);
  const failed = settled && result && !result.ok && result.intent && result.message ? result : null;
  return (
    <Page title="店舗管理" actions={removed ? <WorkingStateBadge state={2} className="px-3 py-1 text-sm" /> : undefined}>
      <StatusBar tone="success" message={settled && result?.ok && result.intent ? SUCCESS[result.intent] : null} />
      {/* Bottom room so the footer's copyright line never covers the last cards. */}
      <div className="space-y-6 pb-10">
        <StoreInfoCard store={store} />
        <div>
          <h2 className="mb-3 text-sm font-semibold text-slate-500">ゲートウェイ</h2>
          <div className="grid grid-cols-1 gap-6 md:grid-cols-3">
            <GatewayPinCard pin={pin} removed={removed} />
            <GatewayExchangeCard
              // A successful exchange empties the field.
              key={result?.intent === 'exchange' && result.ok ? result.at : 'exchange'}
              allowed={canExchange}
              error={result?.intent === 'exchange' ? result.fields?.gateway_info : undefined}
            />
            <RemovalCard allowed={canRemove} removed={removed} gatewayInfo={store.gateway_info} confirming={confirmingRemoval} pagePath={pathname} />
          </div>
          {health && (
            <div className="mt-6">
              <GatewayHealthCard health={health} />
            </div>
          )}
        </div>
      </div>
      {failed && <FailureDialog key={failed.at} title={FAILURE_TITLE[failed.intent!]} message={failed.message} pagePath={pathname} />}
    </Page>
  );
}

/** 403 for roles other than administrators and maintenance, inside the store layout. */
export function ErrorBoundary() {
  return <PageError title="店舗管理" forbiddenHint="店舗管理は管理者と保守担当者のみ利用できます。" />;
}
