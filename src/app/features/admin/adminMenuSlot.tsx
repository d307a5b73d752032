// Where the administrator's menu shows. A screen with a place for it in its own layout (the main
// screen's header) renders <AdminMenuSlot />, and the menu appears there as a drop-down, taking
// room in that layout instead of floating over the screen: floating at the bottom it covered the
// answer buttons. On screens without a slot it floats as before. The context lives in the shell
// (AdminMenuSlotProvider), above both the screens and the menu.
import { createContext, useContext, useState, type ReactNode } from 'react';

interface SlotState {
  slot: HTMLElement | null;
  setSlot: (element: HTMLElement | null) => void;
}

const AdminMenuSlotContext = createContext<SlotState>({ slot: null, setSlot: () => {} });

export function AdminMenuSlotProvider({ children }: { children: ReactNode }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return <AdminMenuSlotContext.Provider value={{ slot, setSlot }}>{children}</AdminMenuSlotContext.Provider>;
}

/** The element the menu goes into, or null where it floats. */
export function useAdminMenuSlot(): HTMLElement | null {
  return useContext(AdminMenuSlotContext).slot;
}

/** The screen's place for the menu; empty (and laid out as nothing) for everyone else. */
export function AdminMenuSlot() {
  const { setSlot } = useContext(AdminMenuSlotContext);
  return <div ref={setSlot} className="admin-menu-slot" />;
}
