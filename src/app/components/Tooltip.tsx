// Validation tooltips (application-spec §5, §9): a field's error messages, joined by newlines,
// in a tooltip at the field, hidden until the field has been blurred or its form marked touched;
// offset 20 px, arrow padding 12 px. Usage, right after the control it speaks of:
//
//   <input aria-invalid={shown} aria-describedby={errorId} … />
//   <FieldTooltip id={errorId} errors={errors.password} show={touched} />
//
// The tooltip is in the page's flow under its control (styles.css, .field-tooltip), not an
// overlay placed by script: an overlay is measured once and stays where it was put while the
// dialog or page scrolls, shakes, or grows a field above it, so it ended up beside another field.
// In the flow it moves with its field whatever moves, is clipped by nothing and covers no other
// field.
//
// useTouched() keeps the blurred-or-touched state of a form's fields.
import { useCallback, useState, type CSSProperties } from 'react';
import { TOOLTIP_ARROW_PADDING_PX, TOOLTIP_OFFSET_PX } from '../developerMode';

const TOOLTIP_SPACING = {
  '--tooltip-offset': `${TOOLTIP_OFFSET_PX}px`,
  '--tooltip-arrow-padding': `${TOOLTIP_ARROW_PADDING_PX}px`,
} as CSSProperties;

export function FieldTooltip({
  id,
  errors,
  show,
}: {
  id?: string;
  errors: readonly string[] | undefined;
  show: boolean;
}) {
  if (!show || !errors || errors.length === 0) return null;
  return (
    <div role="tooltip" className="field-tooltip" style={TOOLTIP_SPACING}>
      <svg className="field-tooltip-arrow" width={12} height={6} viewBox="0 0 12 6" aria-hidden="true">
        <path d="M0 6 L6 0 L12 6" />
      </svg>
      <span id={id}>{errors.join('\n')}</span>
    </div>
  );
}

/** Which fields of a form have been blurred, and whether the whole form is marked touched. */
export function useTouched<Field extends string>() {
  const [blurred, setBlurred] = useState<ReadonlySet<Field>>(new Set());
  const [all, setAll] = useState(false);
  const blur = useCallback((field: Field) => {
    setBlurred((set) => (set.has(field) ? set : new Set(set).add(field)));
  }, []);
  const isTouched = useCallback((field: Field) => all || blurred.has(field), [all, blurred]);
  const touchAll = useCallback(() => setAll(true), []);
  return { blur, isTouched, touchAll };
}
