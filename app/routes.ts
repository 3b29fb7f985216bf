import { type RouteConfig, index, route } from '@react-router/dev/routes'

// Mirrors SPEC section 2; later issues add /auth, /details, /pay, /subscriptions and the static pages.
export default [
  index('routes/home.tsx'),
  route('services', 'routes/services.tsx'),
  route('complaint-board', 'routes/complaint-board.tsx'),
] satisfies RouteConfig
