import { workingStateLabel } from '~/domain/working-state';

const TONES: Record<string, string> = {
  null: 'bg-slate-100 text-slate-600 ring-slate-300',
  0: 'bg-amber-50 text-amber-800 ring-amber-300',
  1: 'bg-emerald-50 text-emerald-700 ring-emerald-300',
  2: 'bg-red-600 text-white ring-red-600',
};

/** The store's working state (000 §4) as a pill; 撤去 (2) is the solid red removal badge. */
export function WorkingStateBadge({ state, className = '' }: { state: number | null; className?: string }) {
  return (
    <span
      data-working-state={state ?? 'null'}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[String(state)] ?? TONES.null} ${className}`}
    >
      {workingStateLabel(state)}
    </span>
  );
}
