// How long research is kept (docs/research.md, "Retention"; the privacy policy's table): SEBI's
// Research Analyst Regulations keep research with its records for 5 years; the retention job
// (app/server/research/retention.server.ts) erases an item with its roll, deliveries and reads then.

/** Years a published item and its records are kept, from its publication (docs/limits.md). */
export const RESEARCH_KEPT_YEARS = 5

/** Items published before this instant are due for erasure at `now`. */
export function researchRetentionCutoff(now: Date): Date {
  const cutoff = new Date(now)
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RESEARCH_KEPT_YEARS)
  return cutoff
}
