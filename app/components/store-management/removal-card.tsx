import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { RemoveBoxIcon } from '~/components/icons';
import { Modal } from '~/components/modal';
import { STORE_MESSAGES } from '~/domain/store-schemas';

interface RemovalProps {
  /** Shown only when the store is operating and has a gateway (000 §4). */
  allowed: boolean;
  removed: boolean;
  gatewayInfo: string | null;
  /** Set when the page was opened with ?confirm=removal (the confirm step without JavaScript). */
  confirming: boolean;
  pagePath: string;
}

/** Removal (撤去): the button, then the confirm dialog 本当に撤去してもよろしいですか？ */
export function RemovalCard({ allowed, removed, gatewayInfo, confirming, pagePath }: RemovalProps) {
  const [asking, setAsking] = useState(false);
  const open = allowed && (asking || confirming);
  return (
    <section className="card flex flex-col p-5" aria-labelledby="removal-title">
      <h2 id="removal-title" className="flex items-center gap-2 text-base font-semibold text-slate-800">
        <RemoveBoxIcon className="h-5 w-5 text-red-600" />
        撤去
      </h2>
      {allowed ? (
        <>
          <p className="mt-4 text-sm leading-relaxed text-slate-600">ゲートウェイの通信を停止し、店舗を撤去状態にします。計測データと警報履歴は残ります。</p>
          <div className="mt-auto pt-4">
            <Link
              to={`${pagePath}?confirm=removal`}
              className="btn-danger w-full"
              onClick={(event) => {
                event.preventDefault();
                setAsking(true);
              }}
            >
              撤去
            </Link>
          </div>
        </>
      ) : (
        <p className="mt-4 text-sm leading-relaxed text-slate-500">
          {removed ? 'この店舗は撤去済みです。' : '撤去は稼働中でゲートウェイ情報のある店舗で行えます。'}
        </p>
      )}
      {open && <RemovalConfirm gatewayInfo={gatewayInfo ?? ''} pagePath={pagePath} fromUrl={confirming} onCancel={() => setAsking(false)} onSubmit={() => setAsking(false)} />}
    </section>
  );
}

interface ConfirmProps {
  gatewayInfo: string;
  pagePath: string;
  /** Opened by ?confirm=removal: cancelling goes back to the page without it. */
  fromUrl: boolean;
  onCancel: () => void;
  onSubmit: () => void;
}

function RemovalConfirm({ gatewayInfo, pagePath, fromUrl, onCancel, onSubmit }: ConfirmProps) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const cancel = () => (fromUrl ? navigate(pagePath, { replace: true }) : onCancel());
  return (
    <Modal role="alertdialog" labelledBy="removal-confirm-title" onClose={cancel}>
      <h2 id="removal-confirm-title" className="text-base font-semibold text-slate-800">{STORE_MESSAGES.removalConfirm}</h2>
      <p className="mt-2 text-sm text-slate-600">
        ゲートウェイ <span className="font-mono">{gatewayInfo}</span> の通信を停止し、店舗を撤去状態にします。
      </p>
      <Form method="post" action={pagePath} className="mt-6 flex justify-end gap-2" onSubmit={onSubmit}>
        <input type="hidden" name="gateway_info" value={gatewayInfo} />
        <Link
          to={pagePath}
          className="btn-secondary"
          onClick={(event) => {
            event.preventDefault();
            cancel();
          }}
        >
          キャンセル
        </Link>
        <button type="submit" name="intent" value="removal" className="btn-danger" disabled={navigation.state !== 'idle'} autoFocus>
          撤去する
        </button>
      </Form>
    </Modal>
  );
}
