import { Glyph, type IconProps } from './glyph';
import { STORE_STATUS } from '~/domain/store-status';
import { ICON_COLOURS } from './palette';

// Store statuses (000 §4) and the sensor warning icon. Their colour is their meaning, so it is
// pinned from the palette; each also differs by shape, for colour-blind eyes and print.
// Codes and labels: app/domain/store-status.ts.

const ALARM_TRIANGLE = 'M12 3.5 21.5 20h-19L12 3.5Z';
const EXCLAMATION = 'M12 9.5v5M12 17.3v.2';

/** 0 not connected: a struck-through signal; 1 closed: a stop square; 2 in operation: a tick; 3 warning: the red alarm triangle. */
export function StoreStatusIcon({ status, className, title }: IconProps & { status: number }) {
  switch (status) {
    case STORE_STATUS.warning:
      return <AlarmTriangle className={className} title={title} />;
    case STORE_STATUS.inOperation:
      return (
        <Glyph className={className} title={title} colour={ICON_COLOURS.ok}>
          <circle cx="12" cy="12" r="8.5" fill="currentColor" fillOpacity={0.15} />
          <path d="m8 12.3 2.8 2.7L16.2 9.5" strokeWidth={2.2} />
        </Glyph>
      );
    case STORE_STATUS.closed:
      return (
        <Glyph className={className} title={title} colour={ICON_COLOURS.stopped}>
          <circle cx="12" cy="12" r="8.5" />
          <rect x="9" y="9" width="6" height="6" rx="1" fill="currentColor" />
        </Glyph>
      );
    default:
      return (
        <Glyph className={className} title={title} colour={ICON_COLOURS.muted}>
          <path d="M2.5 9.2a13.5 13.5 0 0 1 19 0M5.6 12.4a9 9 0 0 1 12.8 0M8.8 15.6a4.6 4.6 0 0 1 6.4 0" />
          <circle cx="12" cy="19" r="1" fill="currentColor" stroke="none" />
          <path d="M4 3.5l16 17" />
        </Glyph>
      );
  }
}

function AlarmTriangle({ className, title }: IconProps) {
  return (
    <Glyph className={className} title={title} colour={ICON_COLOURS.danger}>
      <path d={ALARM_TRIANGLE} fill="currentColor" />
      <path d={EXCLAMATION} stroke="white" strokeWidth={2.2} />
    </Glyph>
  );
}

/** Warning icon of a sensor (000 §4): status 1 an amber outlined triangle, status 2 the red filled one. */
export function WarningIcon({ severity, className = 'h-5 w-5', title }: IconProps & { severity: 1 | 2 }) {
  if (severity === 2) return <AlarmTriangle className={className} title={title} />;
  return (
    <Glyph className={className} title={title} colour={ICON_COLOURS.warning}>
      <path d={ALARM_TRIANGLE} fill="currentColor" fillOpacity={0.15} />
      <path d={EXCLAMATION} strokeWidth={2.2} />
    </Glyph>
  );
}
