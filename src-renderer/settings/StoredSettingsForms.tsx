import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, errorMessage } from '../api';
import { useTimeZone } from '../appInfo';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { useToast } from '../components/Toast';
import { formatDateTime } from '../format';

/**
 * The two forms of a Configurações section whose settings live in the database (WhatsApp #37.5,
 * PSP #36.6): the plain values, shown and edited; the write-only secrets.
 */

/**
 * A stored-settings section's body: the load's error (with "Tentar de novo") or its loading
 * state, then the forms for the view and who changed it last.
 */
export function StoredSettingsBody<
  V extends { alteradaEm: string | null; alteradaPor: string | null },
>({
  view,
  error,
  onRetry,
  loadingLabel,
  idPrefix,
  children,
}: {
  view: V | null;
  /** The load's error, when it failed. */
  error: ApiError | undefined;
  onRetry: () => void;
  loadingLabel: string;
  /** Prefix of the "alterado" line's test id (`{prefix}-alterada`). */
  idPrefix: string;
  children: (view: V) => ReactNode;
}) {
  const timeZone = useTimeZone();
  if (!view) {
    return error ? (
      <ErrorState error={error} onRetry={onRetry} />
    ) : (
      <LoadingState label={loadingLabel} />
    );
  }
  return (
    <>
      {children(view)}
      {view.alteradaEm ? (
        <p className="hint" data-testid={`${idPrefix}-alterada`}>
          Alterado em {formatDateTime(view.alteradaEm, timeZone)} por{' '}
          {view.alteradaPor === 'balcao_app'
            ? 'o acesso do próprio Balcão'
            : (view.alteradaPor ?? '—')}
          .
        </p>
      ) : null}
    </>
  );
}

/** One plain value of a settings section. */
export interface PlainFieldSpec<K extends string> {
  key: K;
  label: string;
  placeholder: string;
  hint?: string;
  /** The input's width in characters. */
  width: number;
}

/**
 * The plain values: only what changed is sent (an emptied field is null: back to the server's
 * setting or the default); pt-BR errors at their field; "Descartar alterações" puts back what is
 * stored. Read-only for whoever cannot edit.
 */
export function PlainSettingsForm<K extends string>({
  fields,
  initial,
  canEdit,
  ariaLabel,
  idPrefix,
  submitLabel,
  savedMessage,
  save,
}: {
  fields: PlainFieldSpec<K>[];
  /** The stored values ('' when unset). */
  initial: Record<K, string>;
  canEdit: boolean;
  ariaLabel: string;
  /** Prefix of the hint and error ids (`{prefix}-hint-{key}`, `{prefix}-err-{key}`). */
  idPrefix: string;
  submitLabel: string;
  savedMessage: string;
  save: (patch: Partial<Record<K, string | null>>) => Promise<void>;
}) {
  const toast = useToast();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const changed = fields.map((f) => f.key).filter((k) => values[k].trim() !== initial[k]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    const patch: Partial<Record<K, string | null>> = {};
    for (const k of changed) patch[k] = values[k].trim() || null;
    try {
      await save(patch);
      toast.show('success', savedMessage);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="form-grid" noValidate aria-label={ariaLabel}>
      <fieldset className="fieldset-plain" disabled={!canEdit}>
        {fields.map((f) => {
          const err = errors[f.key]?.join(' ');
          const errId = `${idPrefix}-err-${f.key}`;
          const hintId = `${idPrefix}-hint-${f.key}`;
          return (
            <label key={f.key} className="field">
              <span className="field-label">{f.label}</span>
              <input
                value={values[f.key]}
                size={f.width}
                spellCheck={false}
                placeholder={f.placeholder}
                onChange={(e) => setValues((s) => ({ ...s, [f.key]: e.target.value }))}
                aria-invalid={err ? true : undefined}
                aria-describedby={err ? errId : f.hint ? hintId : undefined}
              />
              {err ? (
                <span id={errId} className="field-error">
                  {err}
                </span>
              ) : f.hint ? (
                <span id={hintId} className="hint">
                  {f.hint}
                </span>
              ) : null}
            </label>
          );
        })}
      </fieldset>
      {canEdit ? (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={!changed.length || busy}>
            {submitLabel}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!changed.length || busy}
            onClick={() => {
              setValues(initial);
              setErrors({});
            }}
          >
            Descartar alterações
          </button>
        </div>
      ) : null}
    </form>
  );
}

/** One write-only secret of a settings section: the screen only knows whether it is set. */
export interface SecretSpec<K extends string> {
  key: K;
  label: string;
  hint: string;
  set: boolean;
}

/**
 * The write-only secrets of a Configurações section (WhatsApp #37.5, PSP #36.6): each one
 * "configurado" or "não configurado", a password field to replace it and "Remover" under it when
 * set; a supervisor edits, the others see. `save` sends the patch (a new value, or null to
 * remove) and takes the section's answer; its pt-BR field errors show at their field.
 */
export function SecretsForm<K extends string>({
  secrets,
  canEdit,
  ariaLabel,
  idPrefix,
  savedMessage,
  save,
}: {
  secrets: SecretSpec<K>[];
  canEdit: boolean;
  ariaLabel: string;
  /** Prefix of the rows' test ids and the error ids (`{prefix}-secret-{key}`). */
  idPrefix: string;
  savedMessage: string;
  save: (patch: Partial<Record<K, string | null>>) => Promise<void>;
}) {
  const toast = useToast();
  const [values, setValues] = useState<Partial<Record<K, string>>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const typed = secrets.map((s) => s.key).filter((k) => values[k]?.trim());

  const send = async (patch: Partial<Record<K, string | null>>, done: string) => {
    setBusy(true);
    setErrors({});
    try {
      await save(patch);
      setValues((s) => {
        const next = { ...s };
        for (const k of Object.keys(patch) as K[]) delete next[k];
        return next;
      });
      toast.show('success', done);
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const patch: Partial<Record<K, string | null>> = {};
    for (const k of typed) patch[k] = values[k] ?? null;
    void send(patch, savedMessage);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={ariaLabel} className="wa-secrets">
      <table className="wa-secrets-table">
        <tbody>
          {secrets.map((s) => {
            const err = errors[s.key]?.join(' ');
            const errId = `${idPrefix}-err-${s.key}`;
            return (
              <tr key={s.key} data-testid={`${idPrefix}-secret-${s.key}`}>
                <th scope="row">
                  {s.label}
                  <span className="hint wa-secret-hint">{s.hint}</span>
                </th>
                <td>
                  {s.set ? (
                    <StatusBadge tone="ok">configurado</StatusBadge>
                  ) : (
                    <StatusBadge tone="warn">não configurado</StatusBadge>
                  )}
                </td>
                {canEdit ? (
                  <td className="wa-secret-input">
                    <input
                      type="password"
                      autoComplete="off"
                      spellCheck={false}
                      aria-label={`Novo valor: ${s.label}`}
                      placeholder={s.set ? 'substituir…' : 'colar o valor…'}
                      value={values[s.key] ?? ''}
                      disabled={busy}
                      onChange={(e) => setValues((v) => ({ ...v, [s.key]: e.target.value }))}
                      aria-invalid={err ? true : undefined}
                      aria-describedby={err ? errId : undefined}
                    />
                    {err ? (
                      <span id={errId} className="field-error">
                        {err}
                      </span>
                    ) : null}
                    {s.set ? (
                      <button
                        type="button"
                        className="btn"
                        disabled={busy}
                        onClick={() =>
                          void send(
                            { [s.key]: null } as Partial<Record<K, string | null>>,
                            `${s.label}: removido do aplicativo.`,
                          )
                        }
                      >
                        Remover
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {canEdit ? (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={!typed.length || busy}>
            Salvar segredos
          </button>
        </div>
      ) : null}
    </form>
  );
}
