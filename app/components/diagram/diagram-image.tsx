import { useEffect, useState } from 'react';
import { isPdf } from '~/domain/diagram';
import { resourceUrl } from '~/domain/urls';

export interface DiagramSource {
  diagramId: number;
  diagramName: string;
  contentType: string;
}

/** The console's copy of GET /v1/diagram/image (cookie session). */
export function diagramImageUrl(diagramId: number, download = false): string {
  return resourceUrl.diagramImage(diagramId, download);
}

type PdfState = { diagramId: number; status: 'loading' } | { diagramId: number; status: 'ready'; src: string } | { diagramId: number; status: 'failed' };

/**
 * The diagram fitted inside the map, keeping its proportions: PNG, JPEG and SVG through <img>
 * (an SVG is never inlined, so it cannot run script), a PDF drawn from page 1 by pdf.js.
 */
export function DiagramImage({ diagram }: { diagram: DiagramSource }) {
  if (isPdf(diagram.contentType)) return <PdfImage diagram={diagram} />;
  return <Picture src={diagramImageUrl(diagram.diagramId)} name={diagram.diagramName} />;
}

function Picture({ src, name }: { src: string; name: string }) {
  return (
    <img
      src={src}
      alt={`店舗図面：${name}`}
      draggable={false}
      className="pointer-events-none absolute inset-0 h-full w-full select-none object-contain"
      data-testid="diagram-image"
    />
  );
}

function PdfImage({ diagram }: { diagram: DiagramSource }) {
  const [state, setState] = useState<PdfState>({ diagramId: diagram.diagramId, status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    import('./pdf')
      .then(({ renderPdfFirstPage }) => renderPdfFirstPage(diagramImageUrl(diagram.diagramId), controller.signal))
      .then((blob) => {
        if (controller.signal.aborted) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ diagramId: diagram.diagramId, status: 'ready', src: objectUrl });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('the PDF diagram could not be drawn', error);
        setState({ diagramId: diagram.diagramId, status: 'failed' });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [diagram.diagramId]);
  const current = state.diagramId === diagram.diagramId ? state : { status: 'loading' as const };
  if (current.status === 'ready') return <Picture src={current.src} name={diagram.diagramName} />;
  return (
    <div className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-slate-500" role="status">
      {current.status === 'failed' ? '図面を表示できませんでした。' : (
        <span className="flex items-center gap-2">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden />
          図面を読み込んでいます…
        </span>
      )}
    </div>
  );
}
