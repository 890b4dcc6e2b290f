import { Link } from '@remix-run/react';
import { Glyph, type IconProps } from '~/components/icons';
import { StoreNameLine } from '~/components/page-kit/store-page';
import { BandLegend } from './band-legend';
import { storeUrl } from '~/domain/urls';

export type SensorViewKind = 'image' | 'list';

const ImageViewIcon = (props: IconProps) => (
  <Glyph {...props}>
    <circle cx="7" cy="7" r="3.5" />
    <circle cx="17" cy="7" r="3.5" />
    <circle cx="7" cy="17" r="3.5" />
    <circle cx="17" cy="17" r="3.5" />
  </Glyph>
);

const ListViewIcon = (props: IconProps) => (
  <Glyph {...props}>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <path d="M4.5 6h.5M4.5 12h.5M4.5 18h.5" strokeWidth={2.4} />
  </Glyph>
);

/**
 * The header of both sensor views (000 §2): the store name and the title センサ一覧, the colour
 * legend, and the toggle between the image view and the list view (plain links: no JS needed).
 */
export function SensorViewHeader({ storeId, storeName, view, includeHidden, count }: { storeId: string; storeName: string; view: SensorViewKind; includeHidden: boolean; count: number }) {
  const query = includeHidden ? '?include_hidden=1' : '';
  const tab = (kind: SensorViewKind, label: string, Icon: typeof ImageViewIcon) => {
    const active = view === kind;
    return (
      <Link
        to={storeUrl.sensors(storeId, kind, query)}
        aria-current={active ? 'page' : undefined}
        className={`flex items-center gap-1.5 px-3 py-1.5 text-sm font-medium ${active ? 'bg-brand-600 text-white' : 'bg-white text-slate-600 hover:bg-slate-50'}`}
      >
        <Icon className="h-4 w-4" />
        {label}
      </Link>
    );
  };
  return (
    <header className="mb-5 flex flex-wrap items-end gap-x-6 gap-y-3">
      <div className="mr-auto min-w-0">
        <StoreNameLine storeName={storeName} />
        <h1 className="text-xl font-bold text-slate-800">
          センサ一覧 <span className="ml-1 text-sm font-normal text-slate-500">{count}台</span>
        </h1>
      </div>
      <BandLegend />
      <nav aria-label="表示切替" className="flex overflow-hidden rounded-md border border-slate-300 shadow-sm">
        {tab('image', 'イメージ', ImageViewIcon)}
        {tab('list', 'リスト', ListViewIcon)}
      </nav>
    </header>
  );
}
