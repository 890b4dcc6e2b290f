import { Glyph, type IconProps, outlineIcon } from './glyph';

// Small interface glyphs of the header, sidebar and forms: outline only, in currentColor.

export const BellIcon = outlineIcon(<path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15L6 16Z" />, <path d="M10 20a2 2 0 0 0 4 0" />);
export const UserIcon = outlineIcon(<circle cx="12" cy="8" r="4" />, <path d="M4 21a8 8 0 0 1 16 0" />);
export const GearIcon = outlineIcon(<path d="M10.2 4.9 10.3 2.5h3.4l.1 2.4 2 .8 1.7-1.6 2.4 2.4-1.6 1.7.8 2 2.4.1v3.4l-2.4.1-.8 2 1.6 1.7-2.4 2.4-1.7-1.6-2 .8-.1 2.4h-3.4l-.1-2.4-2-.8-1.7 1.6-2.4-2.4 1.6-1.7-.8-2-2.4-.1v-3.4l2.4-.1.8-2-1.6-1.7 2.4-2.4 1.7 1.6 2-.8Z" />, <circle cx="12" cy="12" r="3" />);
export const MasterIcon = outlineIcon(<rect x="3.5" y="3.5" width="7" height="7" rx="1.5" />, <rect x="13.5" y="3.5" width="7" height="7" rx="1.5" />, <rect x="3.5" y="13.5" width="7" height="7" rx="1.5" />, <path d="M17 14v6M14 17h6" />);
export const SystemIcon = outlineIcon(<rect x="3" y="4" width="18" height="12" rx="2" />, <path d="M8 20h8M12 16v4" />, <path d="M7 10h2l1.5-2.5L13 12l1.5-2H17" />);

const CHEVRON_TURN = { left: 0, up: 90, right: 180, down: 270 } as const;

/** The fold and sort chevron; points left unless told (the sidebar rotates it with a class). */
export const ChevronIcon = ({ direction = 'left', ...props }: IconProps & { direction?: keyof typeof CHEVRON_TURN }) => (
  <Glyph {...props}>
    <path d="M15 6l-6 6 6 6" transform={CHEVRON_TURN[direction] ? `rotate(${CHEVRON_TURN[direction]} 12 12)` : undefined} />
  </Glyph>
);

export const MenuIcon = outlineIcon(<path d="M4 6.5h16M4 12h16M4 17.5h16" />);
export const CloseIcon = outlineIcon(<path d="M6 6l12 12M18 6 6 18" />);
export const PlusIcon = outlineIcon(<path d="M12 5v14M5 12h14" />);
export const SearchIcon = outlineIcon(<circle cx="11" cy="11" r="6.5" />, <path d="m16 16 4.5 4.5" />);
export const FilterIcon = outlineIcon(<path d="M4 5h16l-6 7.5V19l-4 1.5v-8L4 5Z" />);
export const DownloadIcon = outlineIcon(<path d="M12 4v11M7.5 10.5 12 15l4.5-4.5" />, <path d="M5 19.5h14" />);
export const DashboardIcon = outlineIcon(<path d="M4 11.5 12 5l8 6.5" />, <path d="M6 10v9.5h4.5V15h3v4.5H18V10" />);
export const ThermometerIcon = outlineIcon(<path d="M10 14.5V5a2 2 0 0 1 4 0v9.5a4 4 0 1 1-4 0Z" />, <path d="M12 10v7" />);
export const ChartIcon = outlineIcon(<path d="M4 4v16h16" />, <path d="m7 15 4-5 3 3 5-6" />);
export const HistoryIcon = outlineIcon(<path d="M4 12a8 8 0 1 0 2.4-5.7" />, <path d="M4 4v4h4" />, <path d="M12 8v4.5l3 2" />);
export const MapIcon = outlineIcon(<path d="M3.5 6.5 9 4l6 2.5 5.5-2.5v13.5L15 20l-6-2.5-5.5 2.5V6.5Z" />, <path d="M9 4v13.5M15 6.5V20" />);
export const ReportIcon = outlineIcon(<path d="M6 3.5h8.5L19 8v12.5H6V3.5Z" />, <path d="M14 3.5V8.5h5M9 13h6M9 16.5h6" />);
/** A clipboard with a tick: the HACCP record (signed off daily), apart from the reports' sheet. */
export const ClipboardCheckIcon = outlineIcon(<path d="M9 4.5H6.5v16h11v-16H15" />, <rect x="9" y="3" width="6" height="3" rx="1" />, <path d="m9 13.5 2 2 4-4.5" />);
export const StoreIcon = outlineIcon(<path d="M4 9.5 5.5 4h13L20 9.5" />, <path d="M4 9.5a2.7 2.7 0 0 0 5.3 0 2.7 2.7 0 0 0 5.4 0 2.7 2.7 0 0 0 5.3 0" />, <path d="M5.5 11.5V20h13v-8.5M10 20v-5h4v5" />);
export const EditIcon = outlineIcon(<path d="M4 20h4L19 9l-4-4L4 16v4Z" />, <path d="m13.5 6.5 4 4" />);
export const TrashIcon = outlineIcon(<path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13" />, <path d="M10.5 11v5.5M13.5 11v5.5" />);
export const LogoutIcon = outlineIcon(<path d="M10 4.5H5.5v15H10" />, <path d="M10 12h10M16 8l4 4-4 4" />);
