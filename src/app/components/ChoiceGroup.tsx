// A fieldset of radio buttons or checkboxes with a legend and the validation tooltip of
// Tooltip.tsx. Usage:
//   <ChoiceGroup legend={t('…')} type="radio" name="gender" options={[{ value: 'man', label: t('…') }]}
//                selected={[gender]} onChange={(values) => setGender(values[0])}
//                errors={messages} touched={touched.isTouched('gender')} onBlur={() => touched.blur('gender')} />
import { useId, type ReactNode } from 'react';
import { FieldTooltip } from './Tooltip';

export interface Choice {
  value: string;
  label: string;
}

export function ChoiceGroup({
  legend,
  type,
  name,
  options,
  selected,
  onChange,
  errors,
  touched,
  onBlur,
  children,
  className,
}: {
  legend: string;
  type: 'radio' | 'checkbox';
  name: string;
  options: readonly Choice[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  errors?: readonly string[];
  touched: boolean;
  onBlur?: () => void;
  children?: ReactNode;
  className?: string;
}) {
  const id = useId();
  const invalid = touched && !!errors && errors.length > 0;
  return (
    <fieldset
      className={`choice-group ${className ?? ''}`}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${id}-error` : undefined}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onBlur?.();
      }}
    >
      <legend>{legend}</legend>
      <div className="choice-options">
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input
              type={type}
              name={name}
              value={option.value}
              checked={selected.includes(option.value)}
              onChange={(event) => {
                if (type === 'radio') onChange([option.value]);
                else
                  onChange(
                    event.target.checked
                      ? [...selected, option.value]
                      : selected.filter((value) => value !== option.value),
                  );
              }}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <FieldTooltip id={`${id}-error`} errors={errors} show={touched} />
      {children}
    </fieldset>
  );
}
