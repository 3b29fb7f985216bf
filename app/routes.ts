import { type RouteConfig, index, route } from '@react-router/dev/routes'

// Mirrors SPEC section 2; later issues add /auth, /details, /pay and /subscriptions.
export default [
  index('routes/home.tsx'),
  route('services', 'routes/services.tsx'),
  // The public regulatory pages (SPEC section 2, "Static pages").
  route('investor-charter', 'routes/investor-charter.tsx'),
  route('performance-report', 'routes/performance-report.tsx'),
  route('complaint-board', 'routes/complaint-board.tsx'),
  route('disclosure', 'routes/disclosure.tsx'),
  route('terms-and-conditions', 'routes/terms-and-conditions.tsx'),
  route('disclaimer', 'routes/disclaimer.tsx'),
  route('grievance-redressal', 'routes/grievance-redressal.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('refund-policy', 'routes/refund-policy.tsx'),
] satisfies RouteConfig
