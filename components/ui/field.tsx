import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

const CONTROL =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-slate-900 focus:outline-none focus:ring-1 focus:ring-slate-900 aria-[invalid=true]:border-red-500";

/**
 * A labelled control, its hint and the server's message about it. `machineName`: the contract name
 * the field is about (a state, an event), shown after the label in monospace — data, not words —
 * and read after it as a word of its own ("Paid paid").
 */
export function Field({
  label,
  machineName,
  htmlFor,
  error,
  hint,
  children,
}: {
  label: string;
  machineName?: string | undefined;
  htmlFor: string;
  error?: string | undefined;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {label}
        {/* A space, not a margin: the label is the control's accessible name, and a margin joins the two
            words into one ("Paidpaid") for a screen reader. */}
        {machineName ? <>{" "}<span className="ml-1 font-mono text-xs font-normal text-slate-600">{machineName}</span></> : null}
      </label>
      {children}
      {hint && !error ? <p className="text-xs text-slate-600">{hint}</p> : null}
      {error ? (
        <p id={`${htmlFor}-error`} className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Input({ className = "", ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${CONTROL} ${className}`} {...props} />;
}

export function Select({ className = "", ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={`${CONTROL} ${className}`} {...props} />;
}
