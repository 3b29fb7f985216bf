/**
 * A stored enum value as lower-case words ("PENDING_VERIFICATION" -> "pending verification"), for
 * values that have no label of their own; where a label map exists (KYC_STATUS_LABELS,
 * FAMILY_RELATION_LABELS, PAYMENT_METHOD_LABELS), that is what a page shows.
 */
export function enumWords(value: string | null): string {
  return value ? value.replaceAll('_', ' ').toLowerCase() : ''
}
