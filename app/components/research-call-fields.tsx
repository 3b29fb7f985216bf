import { Field, RadioGroupField } from '~/components/forms'
import { CALL_ACTION_WORDS, CALL_ACTIONS, CALL_EXCHANGES, CALL_LIMITS } from '~/domain/research-calls'

type Replied = (name: string) => { errors?: readonly string[] | null; defaultValue?: string }

const RUPEES_HINT = 'In rupees, like 1520.50.'

/** Boxes for up to CALL_LIMITS.targetsMax targets, all named "targets"; the errors under the first. */
export function TargetFields({
  legend,
  typed,
  errors,
}: {
  legend: string
  typed: unknown
  errors?: readonly string[] | null
}) {
  const values = Array.isArray(typed) ? typed : typeof typed === 'string' ? [typed] : []
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {Array.from({ length: CALL_LIMITS.targetsMax }, (_, index) => (
          <Field
            key={index}
            label={`Target ${index + 1}${index === 0 ? '' : ' (optional)'}`}
            errors={index === 0 ? errors : undefined}
            inputProps={{
              name: 'targets',
              type: 'text',
              inputMode: 'decimal',
              defaultValue: typeof values[index] === 'string' ? values[index] : undefined,
            }}
          />
        ))}
      </div>
    </fieldset>
  )
}

/** A call's terms: instrument, action, entry, targets, stop-loss, horizon (app/domain/research-calls.ts). */
export function ResearchCallFields({ field, typedTargets }: { field: Replied; typedTargets: unknown }) {
  const price = (name: string, label: string, hint = RUPEES_HINT) => (
    <Field
      label={label}
      hint={hint}
      errors={field(name).errors}
      inputProps={{ name, type: 'text', inputMode: 'decimal', defaultValue: field(name).defaultValue }}
    />
  )
  return (
    <fieldset className="space-y-4">
      <legend className="text-lg font-semibold">The call</legend>
      <RadioGroupField
        legend="Exchange"
        name="exchange"
        options={CALL_EXCHANGES.map((exchange) => ({ value: exchange, label: exchange }))}
        defaultValue={field('exchange').defaultValue}
        errors={field('exchange').errors}
      />
      <Field
        label="Symbol"
        hint="As the exchange lists it, like HDFCBANK. Give the exchange and symbol, or the ISIN, or both."
        errors={field('symbol').errors}
        inputProps={{
          name: 'symbol',
          type: 'text',
          autoCapitalize: 'characters',
          maxLength: CALL_LIMITS.symbolMaxChars,
          defaultValue: field('symbol').defaultValue,
        }}
      />
      <Field
        label="ISIN"
        hint="12 letters and digits, like INE040A01034."
        errors={field('isin').errors}
        inputProps={{
          name: 'isin',
          type: 'text',
          autoCapitalize: 'characters',
          maxLength: 12,
          defaultValue: field('isin').defaultValue,
        }}
      />
      <RadioGroupField
        legend="Action"
        name="action"
        options={CALL_ACTIONS.map((action) => ({ value: action, label: CALL_ACTION_WORDS[action] }))}
        defaultValue={field('action').defaultValue}
        errors={field('action').errors}
      />
      {price('entryLow', 'Entry price', 'In rupees, like 1520.50; for a range, the bottom of it.')}
      {price('entryHigh', 'Top of the entry range (optional)', 'Leave empty for a single entry price.')}
      <TargetFields legend="Targets" typed={typedTargets} errors={field('targets').errors} />
      {price('stopLoss', 'Stop-loss')}
      <Field
        label="Horizon"
        hint="Like: 3 months."
        errors={field('horizon').errors}
        inputProps={{
          name: 'horizon',
          type: 'text',
          maxLength: CALL_LIMITS.horizonMaxChars,
          defaultValue: field('horizon').defaultValue,
        }}
      />
    </fieldset>
  )
}
