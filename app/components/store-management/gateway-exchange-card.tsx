import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { SwapIcon } from '~/components/icons';
import { GATEWAY_INFO_MAX } from '~/domain/store-schemas';

interface ExchangeProps {
  allowed: boolean;
  error?: string;
}

/**
 * Gateway exchange (000 §4, §5): in working states 1 and 2; the new gateway info must be
 * non-empty after trimming, otherwise nothing happens (the button stays disabled).
 */
export function GatewayExchangeCard({ allowed, error }: ExchangeProps) {
  const navigation = useNavigation();
  const [value, setValue] = useState('');
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'exchange';
  return (
    <section className="card flex flex-col p-5" aria-labelledby="exchange-title">
      <h2 id="exchange-title" className="flex items-center gap-2 text-base font-semibold text-slate-800">
        <SwapIcon className="h-5 w-5 text-brand-600" />
        ゲートウェイ交換
      </h2>
      {allowed ? (
        <Form
          method="post"
          className="mt-4 flex flex-1 flex-col"
          onSubmit={(event) => {
            if (value.trim() === '') event.preventDefault();
          }}
        >
          <label htmlFor="new-gateway-info" className="label">新しいゲートウェイ情報</label>
          <input
            id="new-gateway-info"
            name="gateway_info"
            className="input font-mono"
            autoComplete="off"
            maxLength={GATEWAY_INFO_MAX}
            placeholder="例: GW-0123ABCD"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'new-gateway-info-error' : undefined}
          />
          {error && <p id="new-gateway-info-error" className="field-error">{error}</p>}
          <p className="mt-3 text-xs leading-relaxed text-slate-500">交換すると旧ゲートウェイの通信は停止し、新しいゲートウェイの初回通信待ちになります。</p>
          <div className="mt-auto pt-4">
            <button type="submit" name="intent" value="exchange" className="btn-primary w-full" disabled={busy || value.trim() === ''}>
              交換
            </button>
          </div>
        </Form>
      ) : (
        <p className="mt-4 text-sm leading-relaxed text-slate-500">ゲートウェイ交換は稼働中または撤去の店舗で行えます。</p>
      )}
    </section>
  );
}
