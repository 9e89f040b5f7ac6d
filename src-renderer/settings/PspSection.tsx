import { useState } from 'react';
import type { PspSettingsView } from '@shared/contract/psp-settings';
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
  return (
    <section className="card" aria-labelledby="psp-title" data-testid="psp-settings">
      <h2 id="psp-title">PSP e links de pagamento</h2>
      <p className="hint">
        Valem para toda a instalação: ficam no banco de dados e são lidas pelo serviço que recebe as
        notificações Pix e pelo que envia as cobranças quando iniciam — reinicie-os depois de mudar.
        Um valor salvo aqui vale sobre a configuração do servidor; um campo vazio usa a do servidor
        ou o padrão. Sem a URL da API Pix, as cobranças ficam pendentes e nada é enviado.
      </p>
      <StoredSettingsBody
        view={view}
        error={loaded.status === 'error' ? loaded.error : undefined}
        onRetry={loaded.reload}
        loadingLabel="Carregando configurações do PSP…"
        idPrefix="psp"
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
  view: PspSettingsView;
  onSaved: (v: PspSettingsView) => void;
  canEdit: boolean;
}

type PlainKey = 'url' | 'tokenUrl' | 'clientId' | 'certPath' | 'keyPath' | 'caPath' | 'linkUrl';

const PLAIN: PlainFieldSpec<PlainKey>[] = [
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
  return (
    <PlainSettingsForm
      fields={PLAIN}
      initial={{
        url: view.url ?? '',
        tokenUrl: view.tokenUrl ?? '',
        clientId: view.clientId ?? '',
        certPath: view.certPath ?? '',
        keyPath: view.keyPath ?? '',
        caPath: view.caPath ?? '',
        linkUrl: view.linkUrl ?? '',
      }}
      canEdit={canEdit}
      ariaLabel="Endereços e certificados do PSP"
      idPrefix="psp"
      submitLabel="Salvar endereços e certificados"
      savedMessage="Configurações do PSP salvas."
      save={async (patch) => onSaved(await call('psp/saveSettings', patch))}
    />
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
  return (
    <SecretsForm
      secrets={SECRETS.map((s) => ({
        key: s.key,
        label: s.label,
        hint: s.hint,
        set: view[s.flag] === true,
      }))}
      canEdit={canEdit}
      ariaLabel="Segredos do PSP"
      idPrefix="psp"
      savedMessage="Segredos do PSP salvos. Eles não são mostrados de volta."
      save={async (patch) => onSaved(await call('psp/saveSettings', patch))}
    />
  );
}
