import { type RouteConfig, index, route } from '@react-router/dev/routes'

// Mirrors SPEC section 2; later issues add /pay, /subscriptions and the static pages.
export default [
  index('routes/home.tsx'),
  route('auth', 'routes/auth.tsx'),
  route('details', 'routes/details.tsx'),
  route('details/pan-card', 'routes/details.pan-card.ts'),
  route('logout', 'routes/logout.tsx'),
  route('services', 'routes/services.tsx'),
  route('dev/outbox', 'routes/dev.outbox.tsx'),
  route('dev/outbox.json', 'routes/dev.outbox.json.ts'),
] satisfies RouteConfig
