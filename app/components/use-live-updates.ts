import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { resourceUrl } from '~/domain/urls';

const FALLBACK_REFRESH_MS = 60_000;

/**
 * Keeps a screen current: revalidates its loaders when the server sends a change event for
 * the store (or any visible store when storeId is omitted), and every 60 s regardless, the
 * specification's refresh, should the event stream be down.
 */
export function useLiveUpdates(storeId?: string) {
  const revalidator = useRevalidator();
  const revalidatorRef = useRef(revalidator);
  useEffect(() => {
    revalidatorRef.current = revalidator;
  });
  useEffect(() => {
    const refresh = () => revalidatorRef.current.state === 'idle' && revalidatorRef.current.revalidate();
    const timer = window.setInterval(refresh, FALLBACK_REFRESH_MS);
    const source = new EventSource(resourceUrl.events(storeId));
    source.addEventListener('change', refresh);
    return () => {
      window.clearInterval(timer);
      source.close();
    };
  }, [storeId]);
}
