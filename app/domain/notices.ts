// The notices' sizes (000 §7, 001): apart from notice-schemas.ts, because the header's popup uses
// them in the browser and a module with zod schemas at its top level brings zod into the first load.
export const NOTICE_TITLE_MAX = 30;
export const NOTICE_CONTENT_MAX = 100;
/** A notice shows on the dashboard's announcement bar for one week. */
export const NOTICE_BAR_DAYS = 7;
export const NOTICE_POPUP_STEP = 10;
