import { DateField } from '../components/DateField';
import { forwardRef, useId, type ReactNode } from 'react';
import { agreesWith, formatReading } from '@shared/due-dates';
import type { Alerta, AlertaVencimento } from '@shared/extraction-types';
import { formatDocumento, tipoDocumento } from '@shared/documento';
import { formatBRL } from '@shared/money';
import { formatDateBR } from '@shared/time';
import { formatDueDate } from './describe';
import { centavosToReaisText, type FormCheck, type FormState } from './form';

function FieldMessages({
  id,
  messages,
  missing,
}: {
  id: string;
  messages?: string[];
  missing?: boolean;
}) {
  if (messages?.length) {
    return (
      <div id={id} className="field-error" role="alert">
        {messages.map((m) => (
          <p key={m}>{m}</p>
        ))}
      </div>
    );
  }
  if (missing) {
    return (
      <p id={id} className="hint review-missing">
        Faltando: pergunte ao lojista ou preencha.
      </p>
    );
  }
  return null;
}

/** A typed field: the engine's field it fills, its label, test id and typing hints. */
interface TextField {
  campo: string;
  label: string;
  testId: string;
  inputMode?: 'decimal' | 'numeric';
  placeholder?: string;
}

type TextKey = 'valor' | 'parcelas' | 'cliente_nome' | 'descricao' | 'cliente_documento';

/** The typed fields, by the form's key. */
const TEXT_FIELDS: Record<TextKey, TextField> = {
  valor: {
    campo: 'valor_centavos',
    label: 'Valor (R$)',
    testId: 'field-valor',
    inputMode: 'decimal',
    placeholder: 'ex.: 150,00',
  },
  parcelas: {
    campo: 'parcelas',
    label: 'Parcelas',
    testId: 'field-parcelas',
    inputMode: 'numeric',
    placeholder: 'ex.: 3',
  },
  cliente_nome: { campo: 'cliente_nome', label: 'Cliente', testId: 'field-cliente' },
  descricao: { campo: 'descricao', label: 'Descrição (opcional)', testId: 'field-descricao' },
  cliente_documento: {
    campo: 'cliente_documento',
    label: 'CPF/CNPJ do pagador (obrigatório no boleto)',
    testId: 'field-documento',
    placeholder: 'ex.: 123.456.789-09',
  },
};

/**
 * Beside the vencimento field when the text names another date (#42.1): the text's phrase and
 * its date, whether the form's date agrees now, and a button to take it — never written into
 * the field without the agent's click.
 */
function DueDateNote({
  alert,
  vencimento,
  disabled,
  onUse,
}: {
  alert: AlertaVencimento;
  vencimento: string | null;
  disabled: boolean;
  onUse: (iso: string) => void;
}) {
  const reading = { de: alert.data_no_texto, ate: alert.data_no_texto_ate };
  const agrees = agreesWith(reading, vencimento);
  return (
    <div
      className="notice notice-warn review-amount-alert review-date-alert"
      role="note"
      data-testid="due-date-note"
    >
      <p>
        Na mensagem: <strong>«{alert.frase}»</strong> → {formatReading(reading)}
      </p>
      <p>
        {agrees
          ? 'O vencimento do formulário bate com a mensagem.'
          : vencimento
            ? `O vencimento do formulário (${formatDateBR(vencimento)}) é outro: confira antes de confirmar.`
            : 'O vencimento está vazio: confira antes de confirmar.'}
      </p>
      {!agrees && reading.de === reading.ate ? (
        <p>
          <button
            type="button"
            className="btn btn-ghost review-chip"
            disabled={disabled}
            onClick={() => onUse(reading.de)}
            title="Usar a data da mensagem"
          >
            Usar {formatDateBR(reading.de)}
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** Beside a field's control: the value as read (`hint`), what follows the messages, full width. */
interface FieldExtras {
  hint?: string | null;
  after?: ReactNode;
  wide?: boolean;
}

/**
 * The seven fields, validated live with the engine's rules (messages under each field).
 * Money is typed in reais; `faltando` is derived from the empty fields.
 */
export const ChargeForm = forwardRef<
  HTMLInputElement,
  {
    form: FormState;
    check: FormCheck;
    onChange: (f: FormState) => void;
    disabled: boolean;
    alertas: Alerta[];
  }
>(function ChargeForm({ form, check, onChange, disabled, alertas }, firstRef) {
  const uid = useId();
  const set = (patch: Partial<FormState>) => onChange({ ...form, ...patch });
  const props = (campo: string) => {
    const errs = check.errors[campo];
    const missing = (check.faltando as string[]).includes(campo);
    return {
      id: `${uid}-${campo}`,
      'aria-invalid': errs?.length ? true : undefined,
      'aria-describedby': errs?.length || missing ? `${uid}-${campo}-msg` : undefined,
      disabled,
    };
  };
  /** One field: its label, the control, a hint (the value as read), its messages, then `after`. */
  const field = (campo: string, label: string, control: ReactNode, more: FieldExtras = {}) => (
    <div className={more.wide ? 'field review-field-wide' : 'field'}>
      <label className="field-label" htmlFor={`${uid}-${campo}`}>
        {label}
      </label>
      {control}
      {more.hint && !check.errors[campo] ? <p className="hint">{more.hint}</p> : null}
      <FieldMessages
        id={`${uid}-${campo}-msg`}
        messages={check.errors[campo]}
        missing={(check.faltando as string[]).includes(campo)}
      />
      {more.after}
    </div>
  );
  const text = (key: TextKey, more: FieldExtras = {}) => {
    const f = TEXT_FIELDS[key];
    return field(
      f.campo,
      f.label,
      <input
        ref={key === 'valor' ? firstRef : undefined}
        {...props(f.campo)}
        inputMode={f.inputMode}
        autoComplete="off"
        placeholder={f.placeholder}
        value={form[key]}
        onChange={(e) => set({ [key]: e.target.value })}
        data-testid={f.testId}
      />,
      more,
    );
  };
  const alert = alertas.find((a) => a.codigo === 'valor_divergente');
  const dateAlert = alertas.find((a) => a.codigo === 'vencimento_divergente');
  return (
    <form
      className="review-form"
      aria-label="Dados da cobrança"
      onSubmit={(e) => e.preventDefault()}
      noValidate
    >
      {text('valor', {
        hint: check.dados.valor_centavos !== null ? formatBRL(check.dados.valor_centavos) : null,
        after: alert ? (
          <div className="notice notice-warn review-amount-alert" role="note">
            <p>{alert.mensagem}</p>
            {alert.valores_no_texto.length ? (
              <p>
                Valores no texto:{' '}
                {alert.valores_no_texto.map((v) => (
                  <button
                    key={v}
                    type="button"
                    className="btn btn-ghost review-chip"
                    disabled={disabled}
                    onClick={() => set({ valor: centavosToReaisText(v) })}
                    title="Usar este valor"
                  >
                    {formatBRL(v)}
                  </button>
                ))}
              </p>
            ) : null}
          </div>
        ) : null,
      })}
      {text('parcelas')}
      {field(
        'metodo',
        'Forma de pagamento',
        <select
          {...props('metodo')}
          value={form.metodo}
          onChange={(e) => set({ metodo: e.target.value as FormState['metodo'] })}
          data-testid="field-metodo"
        >
          <option value="">— não informada —</option>
          <option value="pix">Pix</option>
          <option value="boleto">Boleto</option>
          <option value="cartao">Cartão</option>
        </select>,
      )}
      {text('cliente_nome')}
      {text('cliente_documento', {
        hint: check.dados.cliente_documento
          ? `${tipoDocumento(check.dados.cliente_documento) === 'cnpj' ? 'CNPJ' : 'CPF'} ${formatDocumento(check.dados.cliente_documento)}`
          : null,
      })}
      {field(
        'vencimento',
        'Vencimento',
        <DateField
          {...props('vencimento')}
          ownMessages={false}
          value={form.vencimento}
          onChange={(vencimento) => set({ vencimento })}
          data-testid="field-vencimento"
        />,
        {
          hint: check.dados.vencimento ? formatDueDate(check.dados.vencimento) : null,
          after: dateAlert ? (
            <DueDateNote
              alert={dateAlert}
              vencimento={check.dados.vencimento}
              disabled={disabled}
              onUse={(vencimento) => set({ vencimento })}
            />
          ) : null,
        },
      )}
      {text('descricao', { wide: true })}
      {check.errors['']?.length ? (
        <div className="field-error review-field-wide" role="alert">
          {check.errors[''].map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      ) : null}
    </form>
  );
});
