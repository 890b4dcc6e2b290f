import { outlineIcon } from './glyph';

// Glyphs of the store management page: the gateway, its PIN, reissue and exchange.

export const GatewayIcon = outlineIcon(<rect x="3" y="13" width="18" height="7" rx="2" />, <path d="M7 16.5h.01M11 16.5h.01" />, <path d="M16 13V9" />, <path d="M13.2 6.6a4 4 0 0 1 5.6 0M11.3 4.5a7 7 0 0 1 9.4 0" />);
export const KeyIcon = outlineIcon(<circle cx="8" cy="15" r="4" />, <path d="M10.8 12.2 20 3M16 7l3 3M14 9l2 2" />);
export const RefreshIcon = outlineIcon(<path d="M20 11a8 8 0 0 0-14.6-4.5L4 8" />, <path d="M4 4v4h4" />, <path d="M4 13a8 8 0 0 0 14.6 4.5L20 16" />, <path d="M20 20v-4h-4" />);
export const SwapIcon = outlineIcon(<path d="M4 8h14l-3.5-3.5M20 16H6l3.5 3.5" />);
export const RemoveBoxIcon = outlineIcon(<path d="M4 7h16l-1.2 12.2a2 2 0 0 1-2 1.8H7.2a2 2 0 0 1-2-1.8L4 7Z" />, <path d="M3 7h18M9 7V4.5A1.5 1.5 0 0 1 10.5 3h3A1.5 1.5 0 0 1 15 4.5V7M10 11.5l4 4M14 11.5l-4 4" />);
