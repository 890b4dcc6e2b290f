import { Form, useNavigation, useSubmit } from '@remix-run/react';
import { useRef, useState } from 'react';
import { GearIcon, UploadIcon } from '~/components/icons';
import { StatusBar } from '~/components/status-bar';
import { DIAGRAM_ACCEPT, DIAGRAM_MESSAGES, MAX_DIAGRAM_BYTES } from '~/domain/diagram';

export const FORMATS_TEXT = `対応形式：PDF、PNG、JPG、SVG（1ファイル${MAX_DIAGRAM_BYTES / 1024 / 1024}MBまで）`;

/** A too-large file is refused before it is sent; the server still decides what a file is. */
export function checkChosenFile(file: File | undefined): string | null {
  if (!file) return DIAGRAM_MESSAGES.noFile;
  if (file.size > MAX_DIAGRAM_BYTES) return DIAGRAM_MESSAGES.tooLarge;
  return null;
}

/**
 * The editor's screen when the store has no diagram (000 §2): drop a file or pick one (PDF,
 * PNG, JPG, SVG); it is uploaded and becomes the store's diagram. Without JavaScript, the
 * picker and the アップロード button post the same form.
 */
export function DiagramDropZone({ error }: { error: string | null }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const uploading = useNavigation().state === 'submitting';

  const send = (files: FileList | null) => {
    const file = files?.[0];
    const problem = checkChosenFile(file);
    setClientError(problem);
    setFileName(file?.name ?? '');
    if (problem || !form.current) return;
    submit(form.current, { method: 'post', encType: 'multipart/form-data' });
  };

  return (
    <Form ref={form} method="post" encType="multipart/form-data" className="card p-6 sm:p-8">
      <StatusBar tone="error" message={clientError ?? error} />
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="origin" value="screen" />
      <div
        className={`flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed px-6 py-16 text-center transition ${dragging ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-slate-50'}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (input.current && event.dataTransfer.files.length > 0) {
            input.current.files = event.dataTransfer.files;
            send(event.dataTransfer.files);
          }
        }}
        data-testid="diagram-drop-zone"
      >
        <span className="rounded-full bg-white p-4 text-brand-600 shadow-sm">
          <UploadIcon className="h-9 w-9" />
        </span>
        <p className="text-base font-semibold text-slate-700">店舗図面のファイルをここにドラッグ＆ドロップ</p>
        <p className="text-sm text-slate-500">または</p>
        <label className="btn-primary cursor-pointer">
          ファイルを選択
          <input ref={input} type="file" name="item_images[]" accept={DIAGRAM_ACCEPT} className="sr-only" onChange={(event) => send(event.target.files)} />
        </label>
        <p className="text-xs text-slate-500">{FORMATS_TEXT}</p>
        {fileName && <p className="text-sm text-slate-700">{uploading ? `${fileName} をアップロードしています…` : fileName}</p>}
        <noscript>
          <button type="submit" className="btn-secondary">
            アップロード
          </button>
        </noscript>
      </div>
      <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
        <GearIcon className="h-5 w-5 shrink-0 text-slate-500" />
        テンプレートを使う場合は、右上の設定アイコンからテンプレートを選んで店舗図面に反映してください。
      </p>
    </Form>
  );
}
