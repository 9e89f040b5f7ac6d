import { useState, type FormEvent } from 'react';
import {
  WHATSAPP_API_URL_PADRAO,
  WHATSAPP_IDIOMA_PADRAO,
  type WhatsAppSettingsPatch,
  type WhatsAppSettingsView,
} from '@shared/contract/whatsapp';
import { ApiError, call, errorMessage } from '../api';
import { useTimeZone } from '../appInfo';
import { formatDateTime } from '../format';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { useToast } from '../components/Toast';
import { useChannel } from '../useChannel';
import './whatsapp.css';

/**
 * Configurações → WhatsApp (#37.5): the installation's WhatsApp Business settings, stored in the
 * database for `balcao serve` and `balcao worker`. Plain values are shown and edited; the three
 * secrets are write-only: the screen learns only whether each is set, and may replace or remove
 * it. Supervisors edit; the others see.
 */
export function WhatsAppSection({ canEdit }: { canEdit: boolean }) {
  const loaded = useChannel('whatsapp/settings', {});
  const [saved, setSaved] = useState<WhatsAppSettingsView | null>(null);
  const view = saved ?? loaded.data ?? null;
  const timeZone = useTimeZone();
  return (
    <section className="card" aria-labelledby="whatsapp-title" data-testid="whatsapp-settings">
      <h2 id="whatsapp-title">WhatsApp</h2>
      <p className="hint">
        Valem para toda a instalação: ficam no banco de dados e são lidas pelo serviço que recebe as
        notificações da Meta e pelo que envia as mensagens quando iniciam — reinicie-os depois de
        mudar. Um valor salvo aqui vale sobre a configuração do servidor; um campo vazio usa a do
        servidor ou o padrão.
      </p>
      {loaded.status === 'error' && !view ? (
        <ErrorState error={loaded.error} onRetry={loaded.reload} />
      ) : !view ? (
        <LoadingState label="Carregando configurações do WhatsApp…" />
      ) : (
        <>
          <PlainFields
            key={JSON.stringify(view)}
            view={view}
            onSaved={setSaved}
            canEdit={canEdit}
          />
          <Secrets view={view} onSaved={setSaved} canEdit={canEdit} />
          {view.alteradaEm ? (
            <p className="hint" data-testid="whatsapp-alterada">
              Alterado em {formatDateTime(view.alteradaEm, timeZone)} por{' '}
              {view.alteradaPor === 'balcao_app'
                ? 'o acesso do próprio Balcão'
                : (view.alteradaPor ?? '—')}
              .
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

interface PartProps {
  view: WhatsAppSettingsView;
  onSaved: (v: WhatsAppSettingsView) => void;
  canEdit: boolean;
}

type PlainKey = 'apiUrl' | 'phoneNumberId' | 'modelo' | 'modeloIdioma';

const PLAIN: { key: PlainKey; label: string; placeholder: string; hint?: string; width: number }[] =
  [
    {
      key: 'phoneNumberId',
      label: 'Phone Number ID',
      placeholder: 'ex.: 109876543210',
      hint: 'O identificador do número no painel da Meta (só dígitos).',
      width: 22,
    },
    {
      key: 'apiUrl',
      label: 'URL da API do WhatsApp',
      placeholder: WHATSAPP_API_URL_PADRAO,
      hint: 'Vazio: a Graph API da Meta, versão fixada pelo Balcão.',
      width: 40,
    },
    {
      key: 'modelo',
      label: 'Modelo para fora da janela de 24 h',
      placeholder: 'ex.: aviso_balcao',
      hint: 'O nome do modelo aprovado na Meta; o corpo tem um parâmetro, o nosso texto.',
      width: 28,
    },
    {
      key: 'modeloIdioma',
      label: 'Idioma do modelo',
      placeholder: WHATSAPP_IDIOMA_PADRAO,
      width: 10,
    },
  ];

function PlainFields({ view, onSaved, canEdit }: PartProps) {
  const toast = useToast();
  const initial: Record<PlainKey, string> = {
    apiUrl: view.apiUrl ?? '',
    phoneNumberId: view.phoneNumberId ?? '',
    modelo: view.modelo ?? '',
    modeloIdioma: view.modeloIdioma ?? '',
  };
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const changed = PLAIN.map((f) => f.key).filter((k) => values[k].trim() !== initial[k]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    const patch: WhatsAppSettingsPatch = {};
    for (const k of changed) patch[k] = values[k].trim() || null;
    try {
      onSaved(await call('whatsapp/saveSettings', patch));
      toast.show('success', 'Configurações do WhatsApp salvas.');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="form-grid" noValidate aria-label="Número e modelo">
      <fieldset className="fieldset-plain" disabled={!canEdit}>
        {PLAIN.map((f) => {
          const err = errors[f.key]?.join(' ');
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
                aria-describedby={err ? `wa-err-${f.key}` : f.hint ? `wa-hint-${f.key}` : undefined}
              />
              {err ? (
                <span id={`wa-err-${f.key}`} className="field-error">
                  {err}
                </span>
              ) : f.hint ? (
                <span id={`wa-hint-${f.key}`} className="hint">
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
            Salvar número e modelo
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

type SecretKey = 'token' | 'appSecret' | 'verifyToken';

const SECRETS: { key: SecretKey; label: string; flag: keyof WhatsAppSettingsView; hint: string }[] =
  [
    {
      key: 'token',
      label: 'Token de acesso',
      flag: 'tokenConfigurado',
      hint: 'Do usuário do sistema na Meta; usado pelo worker para enviar.',
    },
    {
      key: 'appSecret',
      label: 'Chave secreta do app',
      flag: 'appSecretConfigurado',
      hint: 'Confere a assinatura (X-Hub-Signature-256) de cada notificação.',
    },
    {
      key: 'verifyToken',
      label: 'Token de verificação do webhook',
      flag: 'verifyTokenConfigurado',
      hint: 'O mesmo informado à Meta ao cadastrar /whatsapp/webhook.',
    },
  ];

function Secrets({ view, onSaved, canEdit }: PartProps) {
  const toast = useToast();
  const [values, setValues] = useState<Record<SecretKey, string>>({
    token: '',
    appSecret: '',
    verifyToken: '',
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const typed = SECRETS.map((s) => s.key).filter((k) => values[k].trim());

  const send = async (patch: WhatsAppSettingsPatch, done: string) => {
    setBusy(true);
    setErrors({});
    try {
      onSaved(await call('whatsapp/saveSettings', patch));
      setValues((s) => {
        const next = { ...s };
        for (const k of Object.keys(patch) as SecretKey[]) next[k] = '';
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
    const patch: WhatsAppSettingsPatch = {};
    for (const k of typed) patch[k] = values[k];
    void send(patch, 'Segredos do WhatsApp salvos. Eles não são mostrados de volta.');
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Segredos do WhatsApp" className="wa-secrets">
      <table className="wa-secrets-table">
        <tbody>
          {SECRETS.map((s) => {
            const set = view[s.flag] === true;
            const err = errors[s.key]?.join(' ');
            return (
              <tr key={s.key} data-testid={`wa-secret-${s.key}`}>
                <th scope="row">
                  {s.label}
                  <span className="hint wa-secret-hint">{s.hint}</span>
                </th>
                <td>
                  {set ? (
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
                      placeholder={set ? 'substituir…' : 'colar o valor…'}
                      value={values[s.key]}
                      disabled={busy}
                      onChange={(e) => setValues((v) => ({ ...v, [s.key]: e.target.value }))}
                      aria-invalid={err ? true : undefined}
                      aria-describedby={err ? `wa-err-${s.key}` : undefined}
                    />
                    {err ? (
                      <span id={`wa-err-${s.key}`} className="field-error">
                        {err}
                      </span>
                    ) : null}
                    {set ? (
                      <button
                        type="button"
                        className="btn"
                        disabled={busy}
                        onClick={() =>
                          void send({ [s.key]: null }, `${s.label}: removido do aplicativo.`)
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
