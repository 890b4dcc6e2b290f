import { outlineIcon } from './glyph';

// Glyphs of the floor diagram pages: zoom, upload, a tick for placed sensors.

export const MinusIcon = outlineIcon(<path d="M5 12h14" />);
export const UploadIcon = outlineIcon(<path d="M12 15.5V4.5M7.5 9 12 4.5 16.5 9" />, <path d="M4.5 15v4.5h15V15" />);
export const CheckIcon = outlineIcon(<path d="m5 12.5 4.5 4.5L19 7.5" />);
export const FloorPlanIcon = outlineIcon(<rect x="3" y="4" width="18" height="16" rx="1.5" />, <path d="M3 11h7v9M14 4v6h7M14 15h7" />);
