// The status numbers of the stored rows, in one place (docs/conventions.md, "Data"): the API
// answers them as numbers, so they are the spec's values and never change. Pure and free of
// "server-only": the console uses them too.

/** A user: 1 enabled, 2 banned (may not sign in or call), 3 other. */
export const USER_STATUS = { enabled: 1, banned: 2, other: 3 } as const;

/** A channel: 1 enabled, 2 disabled by an admin, 3 disabled by the relay (auto-disabled). */
export const CHANNEL_STATUS = { enabled: 1, disabled: 2, autoDisabled: 3 } as const;

/** One key of a multi-key channel, as a channel's. */
export const KEY_STATUS = CHANNEL_STATUS;

/** An API token: 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
export const TOKEN_STATUS = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;

/** A redemption code: 1 unused, 2 disabled, 3 used. */
export const REDEMPTION_STATUS = { unused: 1, disabled: 2, used: 3 } as const;
