import { type KeyboardEvent, type RefObject, useCallback, useEffect } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The controls inside `element` that Tab can reach, in order (hidden ones left out). */
export function focusableIn(element: HTMLElement): HTMLElement[] {
  return [...element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((control) => control.getClientRects().length > 0);
}

/**
 * The keys of a dialog, popup or open menu: Escape closes it from anywhere inside, and Tab and
 * Shift+Tab stay inside `panel` (a focus trap: past the last control comes the first).
 */
export function useModalKeys(panel: RefObject<HTMLElement>, onEscape: () => void) {
  return useCallback(
    (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onEscape();
        return;
      }
      if (event.key !== 'Tab' || !panel.current) return;
      const items = focusableIn(panel.current);
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = items.includes(document.activeElement as HTMLElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    },
    [panel, onEscape],
  );
}

/**
 * Focus for something that opens over the page: while `open`, focus moves into `panel` (its first
 * control, unless something inside already has it); when it closes, focus goes back to the
 * opener, but only if it was inside or fell to the page body (a click elsewhere keeps its target).
 */
export function useFocusOnOpen(panel: RefObject<HTMLElement>, open: boolean, opener: HTMLElement | RefObject<HTMLElement> | null) {
  useEffect(() => {
    const element = panel.current;
    if (!open || !element) return;
    const target = opener && 'current' in opener ? opener.current : opener;
    if (!element.contains(document.activeElement)) (focusableIn(element)[0] ?? element).focus();
    return () => {
      const active = document.activeElement;
      const lost = !active || active === document.body || element.contains(active);
      if (lost && target?.isConnected) target.focus();
    };
  }, [open, panel, opener]);
}
