import { useState, type FormEvent } from 'react';
import type { SettingsView } from '@shared/contract/settings';
import { ApiError, call, errorMessage } from '../api';
import { useAppInfo } from '../appInfo';
import { Page } from '../components/Layout';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { useToast } from '../components/Toast';
import { usePermissions } from '../session/session';
import { useChannel } from '../useChannel';
import { IdentityCard } from './IdentityCard';
import { PspSection } from './PspSection';
import { WhatsAppSection } from './WhatsAppSection';
import { BRAZIL_TIME_ZONES, MODEL_CHOICES } from '@shared/choices';

const OTHER = '__outro__';

interface FormValues {
  model: string;
  timeZone: string;
  maxAttempts: number;
  freeSqlEnabled: boolean;
}

const fromView = (v: SettingsView): FormValues => ({
  model: v.model,
  timeZone: v.timeZone,
  maxAttempts: v.maxAttempts,
  freeSqlEnabled: v.freeSqlEnabled,
});

export function SettingsPage() {
  const settings = useChannel('settings/get', {});
  // The latest view returned by a save wins over the one loaded on entry.
  const [saved, setView] = useState<SettingsView | null>(null);
  const view = saved ?? settings.data ?? null;
  // These settings apply to everyone who signs in on this computer: supervisors change them.
  const canEdit = usePermissions().can('supervisao');

  return (
    <Page
      title="Configurações"
      subtitle="Quem está usando, modelo, fuso horário, chave da API, WhatsApp e PSP."
    >
      {settings.status === 'error' && !view ? (
        <ErrorState error={settings.error} onRetry={settings.reload} />
      ) : !view ? (
        <LoadingState label="Carregando configurações…" />
      ) : (
        <div className="settings-grid">
          <IdentityCard />
          {canEdit ? null : (
            <p className="notice" role="note" data-testid="settings-readonly">
              Só um supervisor altera as configurações deste computador: elas valem para todos que
              entram nele.
            </p>
          )}
          <ApiKeySection view={view} onChange={setView} canEdit={canEdit} />
          <PreferencesSection
            key={JSON.stringify(fromView(view))}
            view={view}
            onChange={setView}
            canEdit={canEdit}
          />
          <WhatsAppSection canEdit={canEdit} />
          <PspSection canEdit={canEdit} />
          <section className="card" aria-labelledby="db-title">
            <h2 id="db-title">Banco de dados</h2>
            <DatabaseInfo url={view.databaseUrl} />
            <p className="hint">
              Para usar outro servidor, peça ao administrador que mude a configuração do Balcão
              neste computador.
            </p>
          </section>
        </div>
      )}
    </Page>
  );
}

/** "10.0.0.5:5432": which server holds the data (#42.6: no URL, no login, no database name). */
function serverOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.hostname ? u.hostname + (u.port ? `:${u.port}` : '') : null;
  } catch {
    return null;
  }
}

function DatabaseInfo({ url }: { url: string | null }) {
  const mode = useAppInfo().data?.database;
  if (mode === 'embedded') {
    return <p>PostgreSQL embutido, guardado na pasta de dados do aplicativo.</p>;
  }
  const where = url ? serverOf(url) : null;
  return <p>Servidor externo{where ? `: ${where}` : '.'}</p>;
}

/** What each editable section gets: the current view, where a saved one goes, and whether the person may edit. */
interface SectionProps {
  view: SettingsView;
  onChange: (v: SettingsView) => void;
  canEdit: boolean;
}

function ApiKeySection({ view, onChange, canEdit }: SectionProps) {
  const toast = useToast();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onChange(await call('settings/setApiKey', { apiKey: key }));
      setKey('');
      toast.show('success', 'Chave da API salva com criptografia do sistema.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const runTest = async () => {
    setBusy(true);
    setTest(null);
    try {
      const r = await call('settings/testApiKey');
      setTest({ ok: true, text: r.mensagem });
    } catch (err) {
      setTest({ ok: false, text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  const clear = async () => {
    setBusy(true);
    try {
      onChange(await call('settings/clearApiKey'));
      toast.show('info', 'Chave da API removida do aplicativo.');
    } catch (err) {
      toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="apikey-title">
      <h2 id="apikey-title">Chave da API da Anthropic</h2>
      <p>
        Situação:{' '}
        {view.apiKeyConfigured ? (
          <StatusBadge tone="ok">
            {view.apiKeySource === 'env'
              ? 'configurada na instalação deste computador'
              : 'configurada no aplicativo'}
          </StatusBadge>
        ) : (
          <StatusBadge tone="warn">não configurada</StatusBadge>
        )}
      </p>
      <p className="hint">
        A chave fica só no processo principal, criptografada pelo sistema operacional. Ela nunca é
        mostrada de volta.
      </p>
      {canEdit && !view.canStoreApiKey ? (
        <p className="notice notice-warn" role="note">
          {view.cannotStoreReason ?? 'Não é possível guardar a chave neste sistema.'}
        </p>
      ) : null}
      <form onSubmit={save} className="form-row">
        {canEdit ? (
          <>
            <label className="field">
              <span className="field-label">Nova chave</span>
              <input
                type="password"
                autoComplete="off"
                spellCheck={false}
                placeholder="sk-ant-…"
                value={key}
                disabled={!view.canStoreApiKey || busy}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'apikey-error' : undefined}
                onChange={(e) => setKey(e.target.value)}
              />
            </label>
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!view.canStoreApiKey || busy || !key.trim()}
            >
              Salvar chave
            </button>
          </>
        ) : null}
        {view.apiKeyConfigured ? (
          <button type="button" className="btn" onClick={() => void runTest()} disabled={busy}>
            Testar chave
          </button>
        ) : null}
        {canEdit && view.apiKeySource === 'app' ? (
          <button type="button" className="btn" onClick={clear} disabled={busy}>
            Remover chave
          </button>
        ) : null}
      </form>
      {busy && test === null ? null : test ? (
        <p
          className={test.ok ? 'notice notice-ok' : 'notice notice-warn'}
          role="status"
          data-testid="apikey-test"
        >
          {test.text}
        </p>
      ) : null}
      {error ? (
        <p id="apikey-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

function PreferencesSection({ view, onChange, canEdit }: SectionProps) {
  const toast = useToast();
  const appInfo = useAppInfo();
  const [values, setValues] = useState<FormValues>(() => fromView(view));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const initial = fromView(view);
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);

  const set = <K extends keyof FormValues>(k: K, v: FormValues[K]) =>
    setValues((s) => ({ ...s, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFieldErrors({});
    try {
      const next = await call('settings/update', values);
      onChange(next);
      appInfo.reload();
      toast.show('success', 'Configurações salvas.');
    } catch (err) {
      // Field errors are shown at their fields; a toast only for the rest (never both).
      if (err instanceof ApiError && Object.keys(err.fields).length) setFieldErrors(err.fields);
      else toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const [otherModel, setOtherModel] = useState(
    () => !MODEL_CHOICES.some((m) => m.value === view.model),
  );
  const modelChoice = otherModel ? OTHER : values.model;
  // Brazil's zones; a zone set outside the app (environment) stays selectable as it is.
  const zoneChoices = BRAZIL_TIME_ZONES.some((z) => z.value === values.timeZone)
    ? BRAZIL_TIME_ZONES
    : [...BRAZIL_TIME_ZONES, { value: values.timeZone, label: values.timeZone }];

  const err = (k: keyof FormValues) => fieldErrors[k]?.join(' ');
  const describe = (k: keyof FormValues) =>
    err(k) ? { 'aria-invalid': true, 'aria-describedby': `err-${k}` } : {};
  /** A field's error, under it (the control names it with aria-describedby). */
  const errorNote = (k: keyof FormValues) =>
    err(k) ? (
      <span id={`err-${k}`} className="field-error">
        {err(k)}
      </span>
    ) : null;

  return (
    <section className="card" aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferências</h2>
      <form onSubmit={submit} className="form-grid" noValidate>
        <fieldset className="fieldset-plain" disabled={!canEdit}>
          <div className="field">
            <label className="field-label" htmlFor="pref-model">
              Modelo
            </label>
            <select
              id="pref-model"
              value={modelChoice}
              onChange={(e) => {
                const v = e.target.value;
                setOtherModel(v === OTHER);
                if (v !== OTHER) set('model', v);
              }}
              {...describe('model')}
            >
              {MODEL_CHOICES.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
              <option value={OTHER}>outro…</option>
            </select>
            {modelChoice === OTHER ? (
              <input
                aria-label="Nome do modelo"
                value={values.model}
                onChange={(e) => set('model', e.target.value)}
                spellCheck={false}
                placeholder="nome exato do modelo na API"
                {...describe('model')}
              />
            ) : null}
            {errorNote('model')}
          </div>
          <label className="field">
            <span className="field-label">Fuso horário</span>
            <select
              value={values.timeZone}
              onChange={(e) => set('timeZone', e.target.value)}
              {...describe('timeZone')}
            >
              {zoneChoices.map((z) => (
                <option key={z.value} value={z.value}>
                  {z.label}
                </option>
              ))}
            </select>
            {errorNote('timeZone')}
          </label>
          <label className="field">
            <span className="field-label">Máximo de tentativas por extração</span>
            <select
              value={values.maxAttempts}
              onChange={(e) => set('maxAttempts', Number(e.target.value))}
              {...describe('maxAttempts')}
            >
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            {errorNote('maxAttempts')}
          </label>
          <label className="field field-check">
            <input
              type="checkbox"
              checked={values.freeSqlEnabled}
              onChange={(e) => set('freeSqlEnabled', e.target.checked)}
            />
            <span>
              Permitir SQL livre escrito pelo modelo (somente leitura, sob a proteção do banco)
              quando a pergunta não couber nas consultas prontas
            </span>
          </label>
        </fieldset>
        {canEdit ? (
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || busy}>
              Salvar preferências
            </button>
            <button
              type="button"
              className="btn"
              disabled={!dirty || busy}
              onClick={() => {
                setValues(initial);
                setFieldErrors({});
              }}
            >
              Descartar alterações
            </button>
          </div>
        ) : null}
      </form>
    </section>
  );
}
