const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Our ids are UUIDs; anything else from a form or a cookie names nothing (and Postgres would refuse it). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}
