import { useId, type ReactNode } from 'react';
import './long-words.css';

/**
 * Form fields with the label above, the control, then the hint or the error right below it: the
 * error sits beside the field that causes it, is linked with aria-describedby, and takes a fixed
 * line so showing it does not move the fields around.
 */

/** What every field has around its control: the label, the message line, and the control's name and state. */
interface FieldFrameProps {
  label: string;
  error?: string | null | undefined;
  hint?: string | null | undefined;
  /** Keeps the error line's height reserved even when empty (forms that validate while typing). */
  reserveMessage?: boolean;
  className?: string;
  /** The control's name; the label when omitted. */
  name?: string;
  disabled?: boolean;
}

/** The attributes every control in a field carries: the id its label points at, its name, and its state. */
interface ControlAttributes {
  id: string;
  name: string;
  disabled: boolean | undefined;
  'aria-invalid': boolean;
  'aria-describedby': string;
}

interface FieldShellProps extends FieldFrameProps {
  children: (control: ControlAttributes) => ReactNode;
}

export function FieldShell({
  label,
  error,
  hint,
  reserveMessage = true,
  className,
  name,
  disabled,
  children,
}: FieldShellProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const invalid = Boolean(error);
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({ id, name: name ?? label, disabled, 'aria-invalid': invalid, 'aria-describedby': messageId })}
      {invalid ? (
        <p id={messageId} className="field__error" role="alert">
          {error}
        </p>
      ) : hint || reserveMessage ? (
        <p id={messageId} className="field__hint">
          {hint ?? ' '}
        </p>
      ) : null}
    </div>
  );
}

interface TextFieldProps extends FieldFrameProps {
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  /** The placeholder is an example of data (an address), not words to translate. */
  placeholderIsData?: boolean;
  type?: 'text' | 'password' | 'url' | 'email' | 'search';
  inputMode?: 'text' | 'numeric' | 'decimal';
  autoComplete?: string;
}

export function TextField({
  value,
  onChange,
  placeholder,
  placeholderIsData,
  type = 'text',
  inputMode,
  autoComplete,
  ...frame
}: TextFieldProps) {
  return (
    <FieldShell {...frame}>
      {(control) => (
        <input
          {...control}
          className="input"
          type={type}
          inputMode={inputMode}
          value={value}
          placeholder={placeholder}
          translate={placeholderIsData ? 'no' : undefined}
          autoComplete={autoComplete ?? 'off'}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FieldShell>
  );
}

export interface Option<V extends string> {
  value: V;
  label: string;
  /** The label is data (a serial number, a record's name), not words to translate. */
  isData?: boolean;
}

interface SelectFieldProps<V extends string> extends FieldFrameProps {
  value: V | '';
  options: readonly Option<V>[];
  onChange(value: V | ''): void;
  /** Text of the empty choice; without it there is no empty choice. */
  emptyLabel?: string;
}

export function SelectField<V extends string>({ value, options, onChange, emptyLabel, ...frame }: SelectFieldProps<V>) {
  return (
    <FieldShell {...frame}>
      {(control) => (
        <select
          {...control}
          className="input select"
          value={value}
          onChange={(e) => onChange(e.target.value as V | '')}
        >
          {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
          <OptionList options={options} />
        </select>
      )}
    </FieldShell>
  );
}

function OptionList<V extends string>({ options }: { options: readonly Option<V>[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value} translate={o.isData ? 'no' : undefined}>
      {o.label}
    </option>
  ));
}

interface InlineSelectProps<V extends string> {
  /** Said by screen readers only: a select in a table row has no visible label. */
  label: string;
  value: V;
  options: readonly Option<V>[];
  onChange(value: V): void;
  disabled?: boolean;
  /** Why it is disabled, as a tooltip. */
  title?: string;
}

/** A select inside a table row (a user's or a key's role). */
export function InlineSelect<V extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  title,
}: InlineSelectProps<V>) {
  return (
    <select
      className="input select input--inline"
      aria-label={label}
      value={value}
      disabled={disabled}
      title={title}
      onChange={(e) => onChange(e.target.value as V)}
    >
      <OptionList options={options} />
    </select>
  );
}

interface CheckboxGroupProps<V extends string> {
  legend: string;
  options: readonly (Option<V> & { disabledReason?: string | null })[];
  value: readonly V[];
  onChange(value: V[]): void;
  error?: string | null | undefined;
  hint?: string | null | undefined;
  name?: string;
}

export function CheckboxGroup<V extends string>({
  legend,
  options,
  value,
  onChange,
  error,
  hint,
  name,
}: CheckboxGroupProps<V>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <fieldset
      className={`field fieldset${error ? ' field--invalid' : ''}`}
      aria-describedby={messageId}
      aria-invalid={Boolean(error)}
    >
      <legend className="field__label">{legend}</legend>
      <div className="checkbox-row">
        {options.map((o) => {
          const checked = value.includes(o.value);
          const disabled = Boolean(o.disabledReason) && !checked;
          return (
            <label
              key={o.value}
              className={`checkbox${disabled ? ' checkbox--disabled' : ''}`}
              title={disabled ? (o.disabledReason ?? undefined) : undefined}
            >
              <input
                type="checkbox"
                name={name ?? legend}
                value={o.value}
                checked={checked}
                disabled={disabled}
                onChange={(e) => onChange(e.target.checked ? [...value, o.value] : value.filter((v) => v !== o.value))}
              />
              <span translate={o.isData ? 'no' : undefined}>{o.label}</span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={messageId} className="field__error" role="alert">
          {error}
        </p>
      ) : (
        <p id={messageId} className="field__hint">
          {hint ?? ' '}
        </p>
      )}
    </fieldset>
  );
}

interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  hint?: string;
  disabled?: boolean;
}

export function CheckboxField({ label, checked, onChange, hint, disabled }: CheckboxFieldProps) {
  return (
    <div className="field field--checkbox">
      <label className="checkbox">
        <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
        <span>{label}</span>
      </label>
      <p className="field__hint">{hint ?? ' '}</p>
    </div>
  );
}
