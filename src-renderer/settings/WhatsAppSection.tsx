import { useState } from 'react';
import {
  WHATSAPP_API_URL_PADRAO,
  WHATSAPP_IDIOMA_PADRAO,
  type WhatsAppSettingsView,
} from '@shared/contract/whatsapp';
import { call } from '../api';
import {
  PlainSettingsForm,
  SecretsForm,
  StoredSettingsBody,
  type PlainFieldSpec,
} from './StoredSettingsForms';
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
  return (
    <section className="card" aria-labelledby="whatsapp-title" data-testid="whatsapp-settings">
      <h2 id="whatsapp-title">WhatsApp</h2>
      <p className="hint">
        Valem para toda a instalação: ficam no banco de dados e são lidas pelo serviço que recebe as
        notificações da Meta e pelo que envia as mensagens quando iniciam — reinicie-os depois de
        mudar. Um valor salvo aqui vale sobre a configuração do servidor; um campo vazio usa a do
        servidor ou o padrão.
      </p>
      <StoredSettingsBody
        view={view}
        error={loaded.status === 'error' ? loaded.error : undefined}
        onRetry={loaded.reload}
        loadingLabel="Carregando configurações do WhatsApp…"
        idPrefix="whatsapp"
      >
        {(v) => (
          <>
            <PlainFields key={JSON.stringify(v)} view={v} onSaved={setSaved} canEdit={canEdit} />
            <Secrets view={v} onSaved={setSaved} canEdit={canEdit} />
          </>
        )}
      </StoredSettingsBody>
    </section>
  );
}

interface PartProps {
  view: WhatsAppSettingsView;
  onSaved: (v: WhatsAppSettingsView) => void;
  canEdit: boolean;
}

type PlainKey = 'apiUrl' | 'phoneNumberId' | 'modelo' | 'modeloIdioma';

const PLAIN: PlainFieldSpec<PlainKey>[] = [
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
  return (
    <PlainSettingsForm
      fields={PLAIN}
      initial={{
        apiUrl: view.apiUrl ?? '',
        phoneNumberId: view.phoneNumberId ?? '',
        modelo: view.modelo ?? '',
        modeloIdioma: view.modeloIdioma ?? '',
      }}
      canEdit={canEdit}
      ariaLabel="Número e modelo"
      idPrefix="wa"
      submitLabel="Salvar número e modelo"
      savedMessage="Configurações do WhatsApp salvas."
      save={async (patch) => onSaved(await call('whatsapp/saveSettings', patch))}
    />
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
  return (
    <SecretsForm
      secrets={SECRETS.map((s) => ({
        key: s.key,
        label: s.label,
        hint: s.hint,
        set: view[s.flag] === true,
      }))}
      canEdit={canEdit}
      ariaLabel="Segredos do WhatsApp"
      idPrefix="wa"
      savedMessage="Segredos do WhatsApp salvos. Eles não são mostrados de volta."
      save={async (patch) => onSaved(await call('whatsapp/saveSettings', patch))}
    />
  );
}
