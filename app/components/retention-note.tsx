/** A period (or its start) beyond retention (domain/retention.ts), said above what the page shows of it. */
export function RetentionNote({ text, className = '' }: { text: string; className?: string }) {
  return (
    <p className={`rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ${className}`} data-testid="retention-note">
      {text}
    </p>
  );
}
