// A labelled text input with its validation tooltip (Tooltip.tsx): errors are already in the
// user's language; `touched` says whether the field was blurred or its form marked touched.
// Usage:
//   <TextField label={t('login.email')} value={email} onChange={setEmail} errors={errors}
//              touched={touched.isTouched('email')} onBlur={() => touched.blur('email')} type="email" />
import { useId, type InputHTMLAttributes } from 'react';
import { FieldTooltip } from './Tooltip';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>;

export function TextField({
  label,
  value,
  onChange,
  errors,
  touched,
  hint,
  ...input
}: InputProps & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors?: readonly string[];
  touched: boolean;
  hint?: string;
}) {
  const id = useId();
  const invalid = touched && !!errors && errors.length > 0;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={[invalid ? errorId : '', hint ? hintId : ''].join(' ').trim() || undefined}
      />
      <FieldTooltip id={errorId} errors={errors} show={touched} />
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}
