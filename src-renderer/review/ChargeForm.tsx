import { DateField } from '../components/DateField';
import { forwardRef, useId } from 'react';
import type { Alerta } from '@shared/extraction-types';
import { formatBRL } from '@shared/money';
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
  const msgs = (campo: string) => (
    <FieldMessages
      id={`${uid}-${campo}-msg`}
      messages={check.errors[campo]}
      missing={(check.faltando as string[]).includes(campo)}
    />
  );
  const alert = alertas.find((a) => a.codigo === 'valor_divergente');
  return (
    <form
      className="review-form"
      aria-label="Dados da cobrança"
      onSubmit={(e) => e.preventDefault()}
      noValidate
    >
      <div className="field">
        <label className="field-label" htmlFor={`${uid}-valor_centavos`}>
          Valor (R$)
        </label>
        <input
          ref={firstRef}
          {...props('valor_centavos')}
          inputMode="decimal"
          autoComplete="off"
          placeholder="ex.: 150,00"
          value={form.valor}
          onChange={(e) => set({ valor: e.target.value })}
          data-testid="field-valor"
        />
        {check.dados.valor_centavos !== null && !check.errors.valor_centavos ? (
          <p className="hint">{formatBRL(check.dados.valor_centavos)}</p>
        ) : null}
        {msgs('valor_centavos')}
        {alert ? (
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
        ) : null}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${uid}-parcelas`}>
          Parcelas
        </label>
        <input
          {...props('parcelas')}
          inputMode="numeric"
          autoComplete="off"
          placeholder="1"
          value={form.parcelas}
          onChange={(e) => set({ parcelas: e.target.value })}
          data-testid="field-parcelas"
        />
        {msgs('parcelas')}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${uid}-metodo`}>
          Forma de pagamento
        </label>
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
        </select>
        {msgs('metodo')}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${uid}-cliente_nome`}>
          Cliente
        </label>
        <input
          {...props('cliente_nome')}
          autoComplete="off"
          value={form.cliente_nome}
          onChange={(e) => set({ cliente_nome: e.target.value })}
          data-testid="field-cliente"
        />
        {msgs('cliente_nome')}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${uid}-vencimento`}>
          Vencimento
        </label>
        <DateField
          {...props('vencimento')}
          ownMessages={false}
          value={form.vencimento}
          onChange={(vencimento) => set({ vencimento })}
          data-testid="field-vencimento"
        />
        {check.dados.vencimento && !check.errors.vencimento ? (
          <p className="hint">{formatDueDate(check.dados.vencimento)}</p>
        ) : null}
        {msgs('vencimento')}
      </div>
      <div className="field review-field-wide">
        <label className="field-label" htmlFor={`${uid}-descricao`}>
          Descrição (opcional)
        </label>
        <input
          {...props('descricao')}
          autoComplete="off"
          value={form.descricao}
          onChange={(e) => set({ descricao: e.target.value })}
          data-testid="field-descricao"
        />
        {msgs('descricao')}
      </div>
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
