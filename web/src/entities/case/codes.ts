// The numeric codes of a case the server sends (internal/consultation):
// named once here, never written as bare numbers.

/** charge_status: the case's charge. */
export const ChargeStatus = { None: 1, Charged: 2, Refunded: 3 } as const;

/** manage_confirm: the administrator's counter-audit of a released report. */
export const CounterAudit = { None: 0, Asked: 2, Rejected: 3 } as const;

/** is_lock: the assigned expert holds the case to write its diagnosis. */
export const Lock = { Unlocked: 0, Locked: 1 } as const;
