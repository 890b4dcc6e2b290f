import type { ReactNode } from 'react';

/** The centred card of the public screens (login, forgotten password), in English. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-3 text-white">
          <img src="/favicon.svg" alt="" className="h-10 w-10" />
          <span className="text-3xl font-bold tracking-tight">On-Reco</span>
        </div>
        <section className="card px-8 py-8" lang="en">
          <h1 className="mb-6 text-center text-lg font-semibold text-slate-700">{title}</h1>
          {children}
        </section>
        <p className="mt-6 text-center text-xs text-brand-100">Store temperature monitoring</p>
      </div>
    </main>
  );
}

export function ErrorBar({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mb-4 rounded-md bg-red-600 px-3 py-2 text-sm font-medium text-white">
      {message}
    </p>
  );
}
