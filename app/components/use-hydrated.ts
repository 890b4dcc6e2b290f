import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * True once the page is hydrated: controls that only work with JavaScript (a button that sets
 * many checkboxes, a dialog instead of a checkbox) are shown from then on; before it, and
 * without JavaScript, the form's plain controls do the work.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
