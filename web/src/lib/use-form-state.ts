import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";

/** Field errors of a form: a key per field that has one. */
type Errors = object;

export interface FormStateOptions<V, E extends Errors> {
  /** The values the form starts with, and starts over with on each reset. */
  initial: V | (() => V);
  /**
   * The form starts over whenever this changes to a value that is not
   * null, undefined or false: a dialog opening, or another row to edit.
   * Left out, the form starts once, when it mounts.
   */
  resetKey?: unknown;
  /** Checks the values before they are sent; an empty object lets them through. */
  validate: (values: V) => E;
  /**
   * Sends the values. It may answer with field errors the server found
   * (a taken link, say), shown like the ones `validate` finds; a rejection
   * becomes the form's one message.
   */
  save: (values: V, initial: V) => Promise<E | undefined> | Promise<void>;
  /** The message for a rejected save; the error's own message when not given. */
  failureText?: (error: unknown) => string;
  /** Clears a field's error, and the last save's failure, as soon as the field is edited. */
  clearErrorOnEdit?: boolean;
}

export interface FormState<V, E extends Errors> {
  values: V;
  /** The values at the last reset, for sending only what changed. */
  initial: V;
  /** Changes one field; a form with no values yet (null) stays so. */
  set: <K extends keyof NonNullable<V>>(key: K, value: NonNullable<V>[K]) => void;
  update: (change: (values: V) => V) => void;
  errors: E;
  serverError: string | null;
  /** True from a valid submit until its save settles: the form cannot be sent twice. */
  busy: boolean;
  submit: (event: FormEvent) => void;
}

const resolve = <V>(initial: V | (() => V)): V =>
  typeof initial === "function" ? (initial as () => V)() : initial;

const startsOver = (key: unknown) => key !== undefined && key !== null && key !== false;

const hasAny = (errors: Errors) => Object.values(errors).some(Boolean);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Held<V, E> {
  /** The reset key these values were made for. */
  key: unknown;
  start: V;
  values: V;
  errors: E;
  serverError: string | null;
  busy: boolean;
}

const fresh = <V, E>(key: unknown, start: V): Held<V, E> => ({
  key,
  start,
  values: start,
  errors: {} as E,
  serverError: null,
  busy: false,
});

/**
 * The state every edit form in the app keeps: its values, the errors found
 * before or by the save, the save's own failure, and whether a save is
 * under way. One submit path: check, then save, then show what went wrong.
 */
export function useFormState<V, E extends Errors>(options: FormStateOptions<V, E>): FormState<V, E> {
  const { resetKey } = options;
  const [held, setHeld] = useState<Held<V, E>>(() => fresh(resetKey, resolve(options.initial)));
  const latest = useRef(options);
  latest.current = options;

  // A new key shows fresh values in the very render that brings it (never the
  // last row's values for a frame); the effect then keeps them.
  const stale = startsOver(resetKey) && resetKey !== held.key;
  const state = useMemo(
    () => (stale ? fresh<V, E>(resetKey, resolve(latest.current.initial)) : held),
    [stale, resetKey, held],
  );
  useEffect(() => {
    if (stale) setHeld(state);
  }, [stale, state]);

  const change = (update: (h: Held<V, E>) => Held<V, E>) =>
    setHeld((h) => update(h.key === state.key ? h : state));

  const set = <K extends keyof NonNullable<V>>(key: K, value: NonNullable<V>[K]) =>
    change((h) => ({
      ...h,
      values: h.values === null || h.values === undefined ? h.values : { ...h.values, [key]: value },
      ...(latest.current.clearErrorOnEdit
        ? { errors: { ...h.errors, [key]: undefined }, serverError: null }
        : {}),
    }));

  async function save(submitted: V, start: V) {
    const { save, failureText = messageOf } = latest.current;
    change((h) => ({ ...h, busy: true }));
    let errors: E | undefined;
    let serverError: string | null = null;
    try {
      errors = (await save(submitted, start)) || undefined;
    } catch (error) {
      serverError = failureText(error);
    }
    setHeld((h) => ({
      ...h,
      busy: false,
      serverError,
      errors: errors && hasAny(errors) ? errors : h.errors,
    }));
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.busy) return;
    const found = latest.current.validate(state.values);
    change((h) => ({ ...h, errors: found, serverError: null }));
    if (!hasAny(found)) void save(state.values, state.start);
  };

  return {
    values: state.values,
    initial: state.start,
    set,
    update: (edit) => change((h) => ({ ...h, values: edit(h.values) })),
    errors: state.errors,
    serverError: state.serverError,
    busy: state.busy,
    submit,
  };
}

/**
 * The form of a dialog that opens and closes (create or edit a key, a user, a storage
 * config): it starts over each time the dialog opens, and `dialog` holds what FormDialog
 * needs to show it, close it and send it.
 */
export function useDialogForm<V, E extends Errors>({
  open,
  onOpenChange,
  ...options
}: Omit<FormStateOptions<V, E>, "resetKey"> & { open: boolean; onOpenChange: (open: boolean) => void }) {
  const form = useFormState<V, E>({ ...options, resetKey: open });
  return {
    ...form,
    dialog: { open, onClose: () => onOpenChange(false), busy: form.busy, onSubmit: form.submit },
  };
}
