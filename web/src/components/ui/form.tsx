import {
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cn } from "../../lib/cn";

const controlBase =
  "block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-xs transition-colors " +
  "placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 " +
  "disabled:cursor-not-allowed disabled:opacity-60 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500";

function borderFor(invalid?: boolean) {
  return invalid ? "border-red-500 dark:border-red-500" : "border-slate-300 dark:border-slate-700";
}

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

/** A text field; `autoFocus` focuses it whenever it appears (React does so on mount, not only on page load). */
export function Input({ className, invalid, ...props }: InputProps) {
  return (
    <input
      aria-invalid={invalid || undefined}
      className={cn(controlBase, "h-10", borderFor(invalid), className)}
      {...props}
    />
  );
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  invalid?: boolean;
  ref?: Ref<HTMLSelectElement>;
}

export function Select({ className, invalid, children, ref, ...props }: SelectProps) {
  return (
    <select
      ref={ref}
      aria-invalid={invalid || undefined}
      className={cn(controlBase, "h-10 pr-8", borderFor(invalid), className)}
      {...props}
    >
      {children}
    </select>
  );
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return (
    <label className={cn("text-sm font-medium text-slate-700 dark:text-slate-200", className)} {...props} />
  );
}

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  className?: string;
  /** Renders the control with the ids that tie it to its label, hint and error. */
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label + control + hint + error, wired for screen readers (and getByLabel). */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && !error ? (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type FieldChrome = Pick<FieldProps, "label" | "hint" | "error" | "className"> & {
  /** Classes of the control itself (`className` goes to the field around it). */
  controlClassName?: string;
};

/** A labelled text (or number, date…) input with its hint and error: `Field` + `Input` in one. */
export function TextField({
  label,
  hint,
  error,
  className,
  controlClassName,
  ...input
}: FieldChrome & Omit<InputProps, "id" | "invalid" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          className={controlClassName}
          {...input}
        />
      )}
    </Field>
  );
}

/** A labelled select with its hint and error: `Field` + `Select` in one. */
export function SelectField({
  label,
  hint,
  error,
  className,
  controlClassName,
  children,
  ...select
}: FieldChrome & Omit<SelectProps, "id" | "invalid" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <Select
          id={id}
          aria-describedby={describedBy}
          invalid={invalid}
          className={controlClassName}
          {...select}
        >
          {children}
        </Select>
      )}
    </Field>
  );
}

/** A labelled multi-line text field with its hint and error: `Field` + a textarea in one. */
export function TextAreaField({
  label,
  hint,
  error,
  className,
  controlClassName,
  ...textarea
}: FieldChrome & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "className">) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={cn(controlBase, "py-2", borderFor(invalid), controlClassName)}
          {...textarea}
        />
      )}
    </Field>
  );
}
