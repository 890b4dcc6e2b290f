import { Form, useNavigation } from '@remix-run/react';
import { KeyIcon, RefreshIcon } from '~/components/icons';
import { formatDateTime, parseCompact } from '~/domain/japan-time';

interface PinProps {
  pin: { pin_code: string; effective_time: string } | null;
  /** A removed store holds no PIN until its gateway is exchanged. */
  removed: boolean;
}

/**
 * The gateway PIN with its effective time (YYYY/MM/DD HH:mm) and the reissue button; without a
 * valid PIN, the issue button (opening the page issues nothing: no state-changing GET).
 */
export function GatewayPinCard({ pin, removed }: PinProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'reissue_pin';
  const until = pin ? parseCompact(pin.effective_time) : null;
  return (
    <section className="card flex flex-col p-5" aria-labelledby="pin-title">
      <h2 id="pin-title" className="flex items-center gap-2 text-base font-semibold text-slate-800">
        <KeyIcon className="h-5 w-5 text-brand-600" />
        ゲートウェイPINコード
      </h2>
      {pin ? (
        <>
          <p className="mt-4 font-mono text-4xl font-bold tracking-[0.3em] text-slate-900" data-testid="pin-code" aria-label="PINコード">
            {pin.pin_code}
          </p>
          <p className="mt-2 text-sm text-slate-600">
            有効期限 <span className="font-medium text-slate-800" data-testid="pin-effective-time">{until ? formatDateTime(until) : '--'}</span>
          </p>
          <p className="mt-3 text-xs leading-relaxed text-slate-500">ゲートウェイの設置・交換時に、このPINコードでゲートウェイを店舗に登録します。</p>
          <IssueButton label="再発行" busy={busy} />
        </>
      ) : removed ? (
        <p className="mt-4 text-sm leading-relaxed text-slate-500">撤去された店舗にはPINコードを発行しません。ゲートウェイを交換すると発行されます。</p>
      ) : (
        <>
          <p className="mt-4 text-sm leading-relaxed text-slate-500">有効なPINコードはありません。ゲートウェイの設置・交換時に発行してください（有効期限は24時間です）。</p>
          <IssueButton label="発行" busy={busy} />
        </>
      )}
    </section>
  );
}

function IssueButton({ label, busy }: { label: string; busy: boolean }) {
  return (
    <Form method="post" className="mt-auto pt-4">
      <button type="submit" name="intent" value="reissue_pin" className="btn-secondary w-full" disabled={busy}>
        <RefreshIcon className="h-4 w-4" />
        {label}
      </button>
    </Form>
  );
}
