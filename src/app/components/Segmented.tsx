// A segmented choice: a fieldset of radio buttons drawn as a row of toggle buttons, for a few
// short options (the ranking's period and course, the notification filter). Arrow keys move
// between the options, as radio buttons do. Usage:
//   <Segmented legend={t('…')} name="period" options={PERIODS} value={period}
//              label={(option) => t(`…${option}`)} onChange={setPeriod} />
import './Segmented.css';

export function Segmented<T extends string>({
  legend,
  name,
  options,
  value,
  label,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="segmented">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="segmented-option">
          <input type="radio" name={name} value={option} checked={option === value} onChange={() => onChange(option)} />
          <span>{label(option)}</span>
        </label>
      ))}
    </fieldset>
  );
}
