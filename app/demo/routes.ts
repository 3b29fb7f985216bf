import { route } from '@react-router/dev/routes'

/**
 * Demo-only pages (demo mode and tests; each answers 404 in a deployment): the outbox where the SMS
 * and e-mail stand-ins "send", and the sandbox gateway's stand-ins for Razorpay's checkout.js, its
 * hosted checkout and its servers. app/routes.ts registers them from here, in one place.
 */
export function demoRoutes() {
  return [
    route('dev/outbox', 'demo/outbox.tsx'),
    route('dev/outbox.json', 'demo/outbox.json.ts'),
    route('dev/telegram/start', 'demo/telegram-start.tsx'),
    route('dev/sandbox/pay', 'demo/sandbox.pay.ts'),
    route('dev/sandbox/checkout', 'demo/sandbox.checkout.tsx'),
    route('dev/sandbox/checkout.js', 'demo/sandbox.checkout-script.ts'),
    route('dev/sandbox/authorise', 'demo/sandbox.authorise.tsx'),
  ]
}
