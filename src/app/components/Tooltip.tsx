// Validation tooltips (application-spec §5, §9): a field's error messages, joined by newlines,
// in a tooltip beside the field, hidden until the field has been blurred or its form marked
// touched; offset 20 px, arrow padding 12 px. Usage:
//
//   const field = useRef<HTMLInputElement>(null);
//   <input ref={field} aria-invalid={shown} aria-describedby={errorId} … />
//   <FieldTooltip triggerRef={field} id={errorId} errors={errors.password} show={touched} />
//
// useTouched() keeps the blurred-or-touched state of a form's fields.
import { useCallback, useMemo, useState, type RefObject } from 'react';
import { OverlayArrow, Tooltip, TooltipTriggerStateContext } from 'react-aria-components';
import { TOOLTIP_ARROW_PADDING_PX, TOOLTIP_OFFSET_PX } from '../developerMode';

export function FieldTooltip({
  triggerRef,
  id,
  errors,
  show,
  placement = 'end',
}: {
  triggerRef: RefObject<Element | null>;
  id?: string;
  errors: readonly string[] | undefined;
  show: boolean;
  placement?: 'top' | 'bottom' | 'start' | 'end';
}) {
  const open = show && !!errors && errors.length > 0;
  // The tooltip is not driven by hover or focus (no TooltipTrigger): its state is `open`.
  const state = useMemo(() => ({ isOpen: open, shouldSkipAnimation: true, open: () => {}, close: () => {} }), [open]);
  return (
    <TooltipTriggerStateContext.Provider value={state}>
      <Tooltip
        triggerRef={triggerRef}
        isOpen={open}
        offset={TOOLTIP_OFFSET_PX}
        arrowBoundaryOffset={TOOLTIP_ARROW_PADDING_PX}
        placement={placement}
        className="field-tooltip"
      >
        <OverlayArrow className="field-tooltip-arrow">
          <svg width={12} height={12} viewBox="0 0 12 12" aria-hidden="true">
            <path d="M0 0 L6 6 L12 0" />
          </svg>
        </OverlayArrow>
        <span id={id}>{errors?.join('\n')}</span>
      </Tooltip>
    </TooltipTriggerStateContext.Provider>
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
