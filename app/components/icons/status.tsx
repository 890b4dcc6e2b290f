import { Glyph, type IconProps } from './glyph';

// The four store statuses of 000 §4, distinct by shape and colour so they read at a glance.
const STORE_STATUS_STYLE: Record<number, { colour: string; label: string }> = {
  0: { colour: 'text-slate-400', label: '未接続' },
  1: { colour: 'text-slate-500', label: '停止中' },
  2: { colour: 'text-emerald-600', label: '稼働中' },
  3: { colour: 'text-red-600', label: '警報発生中' },
};

export function StoreStatusIcon({ status, className = 'h-6 w-6', title }: IconProps & { status: number }) {
  const style = STORE_STATUS_STYLE[status] ?? STORE_STATUS_STYLE[0];
  const cls = `${className} ${style.colour}`;
  switch (status) {
    case 3:
      return (
        <Glyph className={cls} title={title}>
          <path d="M12 3.5 21.5 20h-19L12 3.5Z" fill="currentColor" fillOpacity={0.15} />
          <path d="M12 9.5v5M12 17.3v.2" strokeWidth={2.2} />
        </Glyph>
      );
    case 2:
      return (
        <Glyph className={cls} title={title}>
          <circle cx="12" cy="12" r="8.5" fill="currentColor" fillOpacity={0.15} />
          <path d="m8 12.3 2.8 2.7L16.2 9.5" />
        </Glyph>
      );
    case 1:
      return (
        <Glyph className={cls} title={title}>
          <circle cx="12" cy="12" r="8.5" />
          <path d="M10 9v6M14 9v6" />
        </Glyph>
      );
    default:
      return (
        <Glyph className={cls} title={title}>
          <path d="M5 12.5a10 10 0 0 1 3.5-3M12 8a10 10 0 0 1 7 4.5M8.5 15.5a5 5 0 0 1 7 0" />
          <circle cx="12" cy="19" r="0.8" fill="currentColor" />
          <path d="M4 4l16 16" />
        </Glyph>
      );
  }
}

/** Warning icon of a sensor: status 1 an amber outline triangle, status 2 a red filled one. */
export function WarningIcon({ severity, className = 'h-5 w-5', title }: IconProps & { severity: 1 | 2 }) {
  const filled = severity === 2;
  return (
    <Glyph className={`${className} ${filled ? 'text-red-600' : 'text-amber-500'}`} title={title}>
      <path d="M12 3.5 21.5 20h-19L12 3.5Z" fill={filled ? 'currentColor' : 'none'} />
      <path d="M12 9.5v5M12 17.3v.2" stroke={filled ? 'white' : 'currentColor'} strokeWidth={2.2} />
    </Glyph>
  );
}
