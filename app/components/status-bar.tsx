/** The success or error bar above a form. */
export function StatusBar({ tone, message }: { tone: 'success' | 'error'; message?: string | null }) {
  if (!message) return null;
  const colours = tone === 'success' ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : 'border-red-200 bg-red-50 text-red-700';
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`mb-4 rounded-md border px-4 py-2 text-sm font-medium ${colours}`}>
      {message}
    </p>
  );
}
