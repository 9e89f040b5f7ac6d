import { useState, type FormEvent } from 'react';
import type { PspSettingsPatch, PspSettingsView } from '@shared/contract/psp-settings';
import { ApiError, call, errorMessage } from '../api';
import { useTimeZone } from '../appInfo';
import { formatDateTime } from '../format';
import { ErrorState, LoadingState, StatusBadge } from '../components/States';
import { useToast } from '../components/Toast';
import { useChannel } from '../useChannel';
import './whatsapp.css';

/**
 * Configurações → PSP e links de pagamento (#36.6), as the WhatsApp section (#37.5): the
 * installation's API Pix and payment-link settings, stored in the database for `balcao serve`
 * and `balcao worker`. Plain values (URLs, client id, the PEM files' paths — never the files) are
 * shown and edited; the three secrets are write-only: the screen learns only whether each is
 * set, and may replace or remove it. Supervisors edit; the others see.
 */
export function PspSection({ canEdit }: { canEdit: boolean }) {
  const loaded = useChannel('psp/settings', {});
  const [saved, setSaved] = useState<PspSettingsView | null>(null);
  const view = saved ?? loaded.data ?? null;
  const timeZone = useTimeZone();
  return (
    <section className="card" aria-labelledby="psp-title" data-testid="psp-settings">
      <h2 id="psp-title">PSP e links de pagamento</h2>
      <p className="hint">
        Valem para toda a instalação: ficam no banco de dados e são lidas pelo serviço que recebe as
        notificações Pix e pelo que envia as cobranças quando iniciam — reinicie-os depois de mudar.
        Um valor salvo aqui vale sobre a configuração do servidor; um campo vazio usa a do servidor
        ou o padrão. Sem a URL da API Pix, as cobranças ficam pendentes e nada é enviado.
      </p>
      {loaded.status === 'error' && !view ? (
        <ErrorState error={loaded.error} onRetry={loaded.reload} />
      ) : !view ? (
        <LoadingState label="Carregando configurações do PSP…" />
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
            <p className="hint" data-testid="psp-alterada">
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
  view: PspSettingsView;
  onSaved: (v: PspSettingsView) => void;
  canEdit: boolean;
}

type PlainKey = 'url' | 'tokenUrl' | 'clientId' | 'certPath' | 'keyPath' | 'caPath' | 'linkUrl';

const PLAIN: { key: PlainKey; label: string; placeholder: string; hint?: string; width: number }[] =
  [
    {
      key: 'url',
      label: 'URL da API Pix',
      placeholder: 'https://pix.seu-psp.com.br/api/v2',
      hint: 'A URL base da API Pix do PSP (https://). Vazio em toda parte: nada é enviado.',
      width: 40,
    },
    {
      key: 'tokenUrl',
      label: 'URL do token (OAuth2)',
      placeholder: 'https://…/oauth/token',
      hint: 'Vazio: a URL da API Pix seguida de /oauth/token.',
      width: 40,
    },
    {
      key: 'clientId',
      label: 'Client id',
      placeholder: 'fornecido pelo PSP',
      width: 28,
    },
    {
      key: 'certPath',
      label: 'Certificado do cliente (caminho do arquivo PEM)',
      placeholder: '/etc/balcao/psp/cliente.crt',
      hint: 'Caminho absoluto na máquina do serve e do worker; o arquivo não passa por esta tela.',
      width: 40,
    },
    {
      key: 'keyPath',
      label: 'Chave do certificado (caminho do arquivo PEM)',
      placeholder: '/etc/balcao/psp/cliente.key',
      hint: 'Vai junto com o certificado (TLS mútuo). Só o caminho é guardado.',
      width: 40,
    },
    {
      key: 'caPath',
      label: 'CA do PSP (caminho do arquivo PEM)',
      placeholder: '/etc/balcao/psp/ca.crt',
      hint: 'Opcional: quando o PSP usa uma autoridade certificadora própria.',
      width: 40,
    },
    {
      key: 'linkUrl',
      label: 'URL do serviço de links (cartão e boleto)',
      placeholder: 'https://links.empresa.com.br',
      hint: 'Vazio em toda parte: as cobranças no cartão ou boleto aguardam.',
      width: 40,
    },
  ];

function PlainFields({ view, onSaved, canEdit }: PartProps) {
  const toast = useToast();
  const initial: Record<PlainKey, string> = {
    url: view.url ?? '',
    tokenUrl: view.tokenUrl ?? '',
    clientId: view.clientId ?? '',
    certPath: view.certPath ?? '',
    keyPath: view.keyPath ?? '',
    caPath: view.caPath ?? '',
    linkUrl: view.linkUrl ?? '',
  };
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const changed = PLAIN.map((f) => f.key).filter((k) => values[k].trim() !== initial[k]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    const patch: PspSettingsPatch = {};
    for (const k of changed) patch[k] = values[k].trim() || null;
    try {
      onSaved(await call('psp/saveSettings', patch));
      toast.show('success', 'Configurações do PSP salvas.');
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
      else toast.show('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      className="form-grid"
      noValidate
      aria-label="Endereços e certificados do PSP"
    >
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
                aria-describedby={
                  err ? `psp-err-${f.key}` : f.hint ? `psp-hint-${f.key}` : undefined
                }
              />
              {err ? (
                <span id={`psp-err-${f.key}`} className="field-error">
                  {err}
                </span>
              ) : f.hint ? (
                <span id={`psp-hint-${f.key}`} className="hint">
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
            Salvar endereços e certificados
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

type SecretKey = 'clientSecret' | 'webhookToken' | 'linkToken';

const SECRETS: { key: SecretKey; label: string; flag: keyof PspSettingsView; hint: string }[] = [
  {
    key: 'clientSecret',
    label: 'Client secret',
    flag: 'clientSecretConfigurado',
    hint: 'Com o client id, obtém o token OAuth2 do PSP.',
  },
  {
    key: 'webhookToken',
    label: 'Token do caminho das notificações',
    flag: 'webhookTokenConfigurado',
    hint: 'As notificações chegam em /pix/webhook/{token}/pix (16 a 128 letras, números, _ ou -).',
  },
  {
    key: 'linkToken',
    label: 'Token do serviço de links',
    flag: 'linkTokenConfigurado',
    hint: 'Enviado como Bearer ao serviço de links de pagamento.',
  },
];

function Secrets({ view, onSaved, canEdit }: PartProps) {
  const toast = useToast();
  const [values, setValues] = useState<Record<SecretKey, string>>({
    clientSecret: '',
    webhookToken: '',
    linkToken: '',
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const typed = SECRETS.map((s) => s.key).filter((k) => values[k].trim());

  const send = async (patch: PspSettingsPatch, done: string) => {
    setBusy(true);
    setErrors({});
    try {
      onSaved(await call('psp/saveSettings', patch));
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
    const patch: PspSettingsPatch = {};
    for (const k of typed) patch[k] = values[k];
    void send(patch, 'Segredos do PSP salvos. Eles não são mostrados de volta.');
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Segredos do PSP" className="wa-secrets">
      <table className="wa-secrets-table">
        <tbody>
          {SECRETS.map((s) => {
            const set = view[s.flag] === true;
            const err = errors[s.key]?.join(' ');
            return (
              <tr key={s.key} data-testid={`psp-secret-${s.key}`}>
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
                      aria-describedby={err ? `psp-err-${s.key}` : undefined}
                    />
                    {err ? (
                      <span id={`psp-err-${s.key}`} className="field-error">
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
