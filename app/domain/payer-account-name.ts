/** The name on the account a bank transfer comes from: its length, shared by /pay's field and the schema (no Zod here: /pay's JavaScript carries none). */
export const PAYER_ACCOUNT_NAME_MAX_LENGTH = 100
