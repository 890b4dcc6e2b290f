import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { CloseIcon, DownloadIcon, GearIcon } from '~/components/icons';
import { Modal } from '~/components/modal';
import { StatusBar } from '~/components/status-bar';
import { DIAGRAM_ACCEPT } from '~/domain/diagram';
import { diagramImageUrl } from './diagram-image';
import { checkChosenFile, FORMATS_TEXT } from './diagram-upload';

export interface DiagramOption {
  diagramId: number;
  diagramName: string;
  isTemplate: boolean;
}

type Tab = 'template' | 'upload';

/**
 * The settings icon and its modal (000 §2): a template tab (the store's diagrams and the
 * chain's templates in a dropdown, a download, 店舗図面に反映) and an upload tab (the chosen
 * file's name, 反映, which needs a chosen file). Both make the diagram the store's.
 */
export function DiagramSettings({ diagrams, currentDiagramId, error, initiallyOpen = false }: { diagrams: readonly DiagramOption[]; currentDiagramId: number | null; error: string | null; initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [tab, setTab] = useState<Tab>('template');
  return (
    <>
      <button type="button" className="rounded-full p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800" aria-label="図面の設定" onClick={() => setOpen(true)}>
        <GearIcon className="h-6 w-6" />
      </button>
      {open && (
        <Modal labelledBy="diagram-settings-title" panelClassName="max-w-lg" closeOnBackdrop onClose={() => setOpen(false)}>
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
            <h2 id="diagram-settings-title" className="text-base font-semibold text-slate-800">
              店舗図面の設定
            </h2>
            <button type="button" aria-label="閉じる" className="rounded-full p-1 text-slate-500 hover:bg-slate-100" onClick={() => setOpen(false)}>
              <CloseIcon className="h-5 w-5" />
            </button>
          </div>
          <div role="tablist" aria-label="店舗図面の設定" className="flex gap-1 border-b border-slate-200 px-5">
            {(
              [
                ['template', 'テンプレート選択'],
                ['upload', '図面アップロード'],
              ] as const
            ).map(([key, label]) => (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={tab === key}
                className={`-mb-px border-b-2 px-3 py-2 text-sm font-semibold ${tab === key ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-700'}`}
                onClick={() => setTab(key)}
              >
                {label}
              </button>
            ))}
          </div>
          <div className="p-5" role="tabpanel">
            <StatusBar tone="error" message={error} />
            {tab === 'template' ? <TemplateTab diagrams={diagrams} currentDiagramId={currentDiagramId} /> : <UploadTab />}
          </div>
        </Modal>
      )}
    </>
  );
}

function TemplateTab({ diagrams, currentDiagramId }: { diagrams: readonly DiagramOption[]; currentDiagramId: number | null }) {
  const initial = diagrams.find((diagram) => diagram.diagramId === currentDiagramId) ?? diagrams[0];
  const [chosen, setChosen] = useState<number | null>(initial?.diagramId ?? null);
  const busy = useNavigation().state !== 'idle';
  if (diagrams.length === 0) return <p className="py-6 text-center text-sm text-slate-500">選択できる図面がありません。</p>;
  const own = diagrams.filter((diagram) => !diagram.isTemplate);
  const templates = diagrams.filter((diagram) => diagram.isTemplate);
  return (
    <Form method="post" className="space-y-5">
      <input type="hidden" name="intent" value="setDiagram" />
      <div>
        <label htmlFor="diagram-choice" className="label">
          図面
        </label>
        <select id="diagram-choice" name="diagram_id" className="input" value={chosen ?? ''} onChange={(event) => setChosen(Number(event.target.value))}>
          {own.length > 0 && (
            <optgroup label="この店舗の図面">
              {own.map((diagram) => (
                <option key={diagram.diagramId} value={diagram.diagramId}>
                  {diagram.diagramName}
                  {diagram.diagramId === currentDiagramId ? '（使用中）' : ''}
                </option>
              ))}
            </optgroup>
          )}
          {templates.length > 0 && (
            <optgroup label="テンプレート">
              {templates.map((diagram) => (
                <option key={diagram.diagramId} value={diagram.diagramId}>
                  {diagram.diagramName}
                  {diagram.diagramId === currentDiagramId ? '（使用中）' : ''}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </div>
      <div className="flex items-center justify-between gap-3">
        <a className={`btn-secondary ${chosen === null ? 'pointer-events-none opacity-50' : ''}`} href={chosen === null ? undefined : diagramImageUrl(chosen, true)} download>
          <DownloadIcon className="h-4 w-4" />
          ダウンロード
        </a>
        <button type="submit" className="btn-primary" disabled={chosen === null || busy}>
          店舗図面に反映
        </button>
      </div>
    </Form>
  );
}

function UploadTab() {
  const [fileName, setFileName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const busy = useNavigation().state !== 'idle';
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-5">
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="origin" value="modal" />
      <StatusBar tone="error" message={problem} />
      <div>
        <span className="label">図面ファイル</span>
        <div className="flex items-center gap-3">
          <label className="btn-secondary shrink-0 cursor-pointer">
            ファイルを選択
            <input
              type="file"
              name="item_images[]"
              accept={DIAGRAM_ACCEPT}
              className="sr-only"
              onChange={(event) => {
                const file = event.target.files?.[0];
                setFileName(file?.name ?? '');
                setProblem(file ? checkChosenFile(file) : null);
              }}
            />
          </label>
          <span className={`min-w-0 flex-1 truncate text-sm ${fileName ? 'text-slate-800' : 'text-slate-400'}`} data-testid="chosen-file-name">
            {fileName || '選択されていません'}
          </span>
        </div>
        <p className="mt-2 text-xs text-slate-500">{FORMATS_TEXT}</p>
      </div>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={!fileName || problem !== null || busy}>
          反映
        </button>
      </div>
    </Form>
  );
}
