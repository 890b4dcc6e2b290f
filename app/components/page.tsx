import type { ReactNode } from 'react';

/** A titled page body with an optional action (close icon, buttons) on the right of the title. */
export function Page({ title, actions, children, narrow = false }: { title: string; actions?: ReactNode; children: ReactNode; narrow?: boolean }) {
  return (
    <main className={`mx-auto w-full flex-1 px-4 py-6 sm:px-6 ${narrow ? 'max-w-2xl' : 'max-w-7xl'}`}>
      <div className="mb-5 flex items-center justify-between gap-4">
        <h1 className="text-xl font-bold text-slate-800">{title}</h1>
        {actions && <div className="flex items-center gap-2">{actions}</div>}
      </div>
      {children}
    </main>
  );
}
