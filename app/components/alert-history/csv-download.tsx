import { useState } from 'react';
import { DownloadIcon } from '~/components/icons';
import { ALERT_HISTORY_CSV_FILENAME, ALERT_HISTORY_MESSAGES } from '~/domain/alert-history';
import { MessageDialog } from './stop-dialog';

/**
 * CSV of the current filters. Without JavaScript a plain download link; with it the file is
 * fetched first so that a failure shows the message of 000 §8 instead of an error page.
 */
export function CsvDownloadButton({ href }: { href: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const download = async () => {
    setState('busy');
    try {
      const response = await fetch(href, { credentials: 'same-origin' });
      if (!response.ok || !(response.headers.get('Content-Type') ?? '').startsWith('text/csv')) throw new Error(`CSV ${response.status}`);
      const url = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement('a'), { href: url, download: ALERT_HISTORY_CSV_FILENAME });
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <a
        href={href}
        download={ALERT_HISTORY_CSV_FILENAME}
        className={`btn-secondary ${state === 'busy' ? 'pointer-events-none opacity-60' : ''}`}
        aria-busy={state === 'busy'}
        onClick={(event) => {
          event.preventDefault();
          if (state !== 'busy') void download();
        }}
      >
        <DownloadIcon className="h-4 w-4" />
        CSVダウンロード
      </a>
      {state === 'failed' && <MessageDialog message={ALERT_HISTORY_MESSAGES.csvFailed} onOk={() => setState('idle')} />}
    </>
  );
}
