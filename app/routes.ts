import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

// Mirrors SPEC section 2; later issues add /pay, /subscriptions and the static pages.
export default [
  index('routes/home.tsx'),
  route('auth', 'routes/auth.tsx'),
  route('details', 'routes/details.tsx'),
  route('details/pan-card', 'routes/details.pan-card.ts'),
  route('logout', 'routes/logout.tsx'),
  route('services', 'routes/services.tsx'),
  route('dev/outbox', 'routes/dev.outbox.tsx'),
  // The admin console: ADMIN role only; everyone else gets 404 (app/server/admin.server.ts).
  ...prefix('admin', [
    layout('routes/admin/layout.tsx', [
      index('routes/admin/index.tsx'),
      route('payments', 'routes/admin/payments.tsx'),
      route('audit', 'routes/admin/audit.tsx'),
    ]),
  ]),
  route('dev/outbox.json', 'routes/dev.outbox.json.ts'),
  // SPEC section 7: the JSON API of the existing web and mobile clients (docs/api.md).
  ...prefix('api/v1', [
    route('otp/request', 'routes/api.v1/otp.request.ts'),
    route('otp/verify', 'routes/api.v1/otp.verify.ts'),
    route('users/logout', 'routes/api.v1/users.logout.ts'),
    route('users/refresh-token', 'routes/api.v1/users.refresh-token.ts'),
    route('users/current-user', 'routes/api.v1/users.current-user.ts'),
    route('users/set-details', 'routes/api.v1/users.set-details.ts'),
    route('users/set-pancard', 'routes/api.v1/users.set-pancard.ts'),
    route('users/set-agreement', 'routes/api.v1/users.set-agreement.ts'),
    route('agreement', 'routes/api.v1/agreement.ts'),
    route('services/get-available-services', 'routes/api.v1/services.get-available-services.ts'),
    route('services/get-specific-services', 'routes/api.v1/services.get-specific-services.ts'),
    route('*', 'routes/api.v1/not-found.ts'),
  ]),
] satisfies RouteConfig
