// One-time codes by SMS or e-mail (sign-in, a new e-mail address, a visitor's complaint). Kept apart
// from sign-in.ts and its Zod schemas, so the code forms' JavaScript can say how long a code lasts
// (docs/decisions/017-no-zod-in-auth-client.md).

/** A code is valid this many minutes after it is sent; the check enforces it and every text that states it reads it. */
export const OTP_VALID_MINUTES = 5
