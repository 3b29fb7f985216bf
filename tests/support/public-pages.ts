/**
 * The regulatory pages: the footer's links (the complaint form among them), and the other documents SEBI
 * requires. Lighthouse measures each (bench/lighthouse-pages.ts); api.page-scripts.spec.ts holds each to the
 * layout's script files and its own.
 */
export const REGULATORY_PATHS = [
  '/complaints/new',
  '/disclosure',
  '/disclaimer',
  '/terms-and-conditions',
  '/mitc',
  '/investor-charter',
  '/grievance-redressal',
  '/privacy-policy',
  '/refund-policy',
  '/complaint-board',
  '/performance-report',
] as const
