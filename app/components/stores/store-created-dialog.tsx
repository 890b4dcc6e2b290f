import { Link, useNavigate } from '@remix-run/react';
import { Modal } from '~/components/modal';
import { ja } from '~/domain/texts/ja';
import { storeUrl } from '~/domain/urls';

/**
 * After a new store is saved: a confirmation and what is left before it records temperatures,
 * as links to the screens that do it (the PIN on 店舗管理, the sensors on 設定). The steps are
 * for administrators and maintenance (storeManagement); a manager is told who does them. The
 * button goes where the specifications send a saved store (001 §2: its temperature image page).
 */
export function StoreCreatedDialog({ storeId, storeName, managesStores }: { storeId: string; storeName: string; managesStores: boolean }) {
  const navigate = useNavigate();
  const texts = ja.storeCreated;
  const done = storeUrl.sensors(storeId, 'image');
  return (
    <Modal role="alertdialog" labelledBy="store-created-title" panelClassName="max-w-lg p-6" onClose={() => navigate(done)}>
      <h2 id="store-created-title" className="text-base font-semibold text-slate-800">{texts.title}</h2>
      <p className="mt-2 text-sm text-slate-600">{texts.message(storeName)}</p>
      <h3 className="mt-4 text-sm font-semibold text-slate-700">{texts.steps}</h3>
      <ol className="mt-2 list-decimal space-y-3 pl-5 text-sm text-slate-700">
        <li>
          {texts.gateway}
          <br />
          {managesStores ? (
            <Link to={storeUrl.management(storeId)} className="text-brand-700 underline">{texts.gatewayLink}</Link>
          ) : (
            <span className="text-slate-500">{texts.byStaff}</span>
          )}
        </li>
        <li>
          {texts.sensors}
          <br />
          {managesStores ? (
            <Link to={storeUrl.sensorSettings(storeId, { tab: 'sensors' })} className="text-brand-700 underline">{texts.sensorsLink}</Link>
          ) : (
            <span className="text-slate-500">{texts.byStaff}</span>
          )}
        </li>
      </ol>
      <div className="mt-6 flex justify-end">
        <Link to={done} className="btn-primary" autoFocus>{texts.toStore}</Link>
      </div>
    </Modal>
  );
}
