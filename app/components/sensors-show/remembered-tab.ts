import type { SensorsShowTab } from '~/domain/sensor-settings';

// The sensors show page's remembered tab (001 §2): client state kept across pages, applied when
// the page is entered and then cleared. Pages that lead back to a tab (the alert-stop list's back
// button, the diagram editor's discard) set it before they navigate.

const KEY = 'onreco.sensorsShowTab';

/** Remembers the tab the sensors show page opens on next (sessionStorage; nothing without a browser). */
export function rememberSensorsShowTab(tab: SensorsShowTab): void {
  try {
    window.sessionStorage.setItem(KEY, tab);
  } catch {
    // Storage refused (private mode): the page opens on its default tab.
  }
}

/** The remembered tab, cleared as it is read; null when none. */
export function takeRememberedSensorsShowTab(): string | null {
  try {
    const tab = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return tab;
  } catch {
    return null;
  }
}
