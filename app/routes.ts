import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'
import { demoRoutes } from './demo/routes'

// The original store's screens (docs/product.md section 2), plus ours.
export default [
  index('routes/home.tsx'),
  route('auth', 'routes/auth.tsx'),
  route('details', 'routes/details.tsx'),
  route('details/pan-card', 'routes/details.pan-card.ts'),
  route('logout', 'routes/logout.tsx'),
  route('services', 'routes/services.tsx'),
  route('pay', 'routes/pay.tsx'),
  route('subscriptions', 'routes/subscriptions.tsx'),
  // A customer's invoices and credit notes; a document's number is its path (INV/2627/000001).
  route('invoices', 'routes/invoices.tsx'),
  route('invoices/:series/:year/:sequence', 'routes/invoice.tsx'),
  // The PANs of the customer's family, counted together for SEBI's fee cap (docs/regulatory.md).
  route('family-members', 'routes/family-members.tsx'),
  // "Your data" (docs/regulatory.md, The customer's data): what we hold, its download, closing the account.
  route('account', 'routes/account.tsx'),
  route('account/data.json', 'routes/account.data-json.ts'),
  // KYC status at the KRA, "check again", and correction requests for name, PAN and date of birth.
  route('account/corrections', 'routes/account.corrections.tsx'),
  // A complete profile's e-mail address, changed with a code sent to the new address.
  route('account/email', 'routes/account.email.tsx'),
  route('account/nominee', 'routes/account.nominee.tsx'),
  // An accredited investor's own opt-in to be outside the fee cap, for the certificate the analyst recorded.
  route('account/accredited-investor', 'routes/account.accredited-investor.tsx'),
  // Where research reaches the customer besides the site: e-mail, SMS, Telegram (linked here).
  route('account/research-channels', 'routes/account.research-channels.tsx'),
  route('subscriptions/:serviceId/end', 'routes/subscriptions.end.tsx'),
  // Automatic renewal of a service held (docs/payments.md, "Renewals and mandates"): its consent, its state, its stop;
  // also where the sandbox's authorisation page returns.
  route('subscriptions/:serviceId/auto-renew', 'routes/subscriptions.auto-renew.tsx'),
  // The research delivered to the customer (docs/research.md): only items on whose roll they are.
  route('research', 'routes/research.tsx'),
  route('research/:itemId', 'routes/research.item.tsx'),
  // Its PDF attachment, to the same readers (404 to anyone else).
  route('research/:itemId/attachment', 'routes/research.item-attachment.ts'),
  // The one-tap renewal a reminder links to (docs/payments.md, "Renewals"): into the cart, then /pay.
  route('renew/:serviceId', 'routes/renew.tsx'),
  // Complaints (docs/regulatory.md, Complaint register): the form, for customers and visitors who confirm a phone or
  // e-mail; a customer's list.
  route('complaints', 'routes/complaints.tsx'),
  route('complaints/new', 'routes/complaints.new.tsx'),
  // Where the gateway's hosted checkout sends the customer back (Pay on Website without JavaScript).
  route('payments/callback', 'routes/payments.callback.ts'),
  route('payments/cancel', 'routes/payments.cancel.ts'),
  // The admin console: ADMIN role only; everyone else gets 404 (app/server/auth/admin-role.server.ts).
  ...prefix('admin', [
    layout('routes/admin/layout.tsx', [
      index('routes/admin/index.tsx'),
      route('payments', 'routes/admin/payments.tsx'),
      route('services', 'routes/admin/services.tsx'),
      // Both use the same module; a route module can be registered twice only under distinct ids.
      route('services/new', 'routes/admin/service-edit.tsx', { id: 'routes/admin/service-new' }),
      route('services/:serviceId', 'routes/admin/service-edit.tsx'),
      route('customers', 'routes/admin/customers.tsx'),
      route('customers/:userId', 'routes/admin/customer.tsx'),
      route('complaints', 'routes/admin/complaints.tsx'),
      route('complaints/:complaintId', 'routes/admin/complaint.tsx'),
      route('complaint-board', 'routes/admin/complaint-board.tsx'),
      route('complaint-board/:month', 'routes/admin/complaint-board-month.tsx'),
      route('export', 'routes/admin/export.tsx'),
      route('audit', 'routes/admin/audit.tsx'),
      // What the analyst sees: money, subscribers, renewals, cohorts, the funnel (docs/admin.md, "Insights").
      route('insights', 'routes/admin/insights.tsx'),
      route('refunds', 'routes/admin/refunds.tsx'),
      route('stop-services', 'routes/admin/stop-services.tsx'),
      route('notices', 'routes/admin/notices.tsx'),
      route('research', 'routes/admin/research.tsx'),
      route('research/new', 'routes/admin/research-new.tsx'),
      // A service's calls and their outcomes (docs/research.md, "Track record").
      route('research/track-record', 'routes/admin/research-track-record.tsx'),
      route('research/:itemId', 'routes/admin/research-item.tsx'),
      route('research/:itemId/follow-up', 'routes/admin/research-follow-up.tsx'),
      // An unknown /admin path: the 404 inside the console, with its navigation (the layout's error boundary).
      route('*', 'routes/not-found.tsx', { id: 'routes/admin/not-found' }),
    ]),
    route('export.csv', 'routes/admin/export-csv.ts'),
    route('insights.csv', 'routes/admin/insights-csv.ts'),
    route('research/audit-pack', 'routes/admin/research-audit-pack.ts'),
    route('research/track-record.csv', 'routes/admin/research-track-record-csv.ts'),
    route('research/:itemId/audit-pack', 'routes/admin/research-item-audit-pack.ts'),
    route('research/:itemId/attachment', 'routes/admin/research-item-attachment.ts'),
    route('customers/:userId/pan-card', 'routes/admin/customer-pan-card.ts'),
    route('complaints/:complaintId/attachment', 'routes/admin/complaint-attachment.ts'),
    route('customers/:userId/end-subscription', 'routes/admin/customer-end-subscription.ts'),
  ]),
  // Demo mode and tests only (the outbox, the sandbox gateway's stand-ins); 404 in a deployment.
  ...demoRoutes(),
  // Razorpay's servers call this; outside /api/v1 so the XSRF pair does not apply (the signature does).
  route('webhooks/razorpay', 'routes/webhooks.razorpay.ts'),
  // The research bot's updates from Telegram; the secret-token header is the check.
  route('webhooks/telegram', 'routes/webhooks.telegram.ts'),
  // MSG91's SMS delivery reports (docs/research.md, "Delivery reports"); the URL carries MSG91_WEBHOOK_SECRET.
  route('webhooks/msg91', 'routes/webhooks.msg91.ts'),
  // The JSON API of the existing web and mobile clients (docs/api.md).
  ...prefix('api/v1', [
    route('otp/request', 'routes/api.v1/otp.request.ts'),
    route('otp/verify', 'routes/api.v1/otp.verify.ts'),
    route('users/logout', 'routes/api.v1/users.logout.ts'),
    route('users/refresh-token', 'routes/api.v1/users.refresh-token.ts'),
    route('users/current-user', 'routes/api.v1/users.current-user.ts'),
    route('users/set-details', 'routes/api.v1/users.set-details.ts'),
    route('users/set-pancard', 'routes/api.v1/users.set-pancard.ts'),
    route('users/set-agreement', 'routes/api.v1/users.set-agreement.ts'),
    route('users/request-correction', 'routes/api.v1/users.request-correction.ts'),
    route('agreement', 'routes/api.v1/agreement.ts'),
    route('services/get-available-services', 'routes/api.v1/services.get-available-services.ts'),
    route('services/get-specific-services', 'routes/api.v1/services.get-specific-services.ts'),
    route('payments/create-order', 'routes/api.v1/payments.create-order.ts'),
    route('payments/verify-payment', 'routes/api.v1/payments.verify-payment.ts'),
    route('payments/re-verify-payment', 'routes/api.v1/payments.re-verify-payment.ts'),
    route('payments/failed-payment', 'routes/api.v1/payments.failed-payment.ts'),
    route('payments/cancel-payment', 'routes/api.v1/payments.cancel-payment.ts'),
    route('payments/manual-payment', 'routes/api.v1/payments.manual-payment.ts'),
    route('payments/pending-payments', 'routes/api.v1/payments.pending-payments.ts'),
    route('subscriptions/get-active-subscriptions', 'routes/api.v1/subscriptions.get-active-subscriptions.ts'),
    route('mandates', 'routes/api.v1/mandates.ts'),
    route('mandates/create', 'routes/api.v1/mandates.create.ts'),
    route('mandates/cancel', 'routes/api.v1/mandates.cancel.ts'),
    route('research', 'routes/api.v1/research.ts'),
    route('research/:itemId', 'routes/api.v1/research.item.ts'),
    route('*', 'routes/api.v1/not-found.ts'),
  ]),
  // The public regulatory pages (docs/regulatory.md).
  route('investor-charter', 'routes/investor-charter.tsx'),
  route('performance-report', 'routes/performance-report.tsx'),
  route('complaint-board', 'routes/complaint-board.tsx'),
  route('disclosure', 'routes/disclosure.tsx'),
  route('terms-and-conditions', 'routes/terms-and-conditions.tsx'),
  // A new version of the terms (docs/regulatory.md, A new version of the terms): what changed, and where a customer
  // accepts it.
  route('terms-and-conditions/changes', 'routes/terms-and-conditions.changes.tsx'),
  route('terms/accept', 'routes/terms.accept.tsx'),
  // A customer onboarded without the Investor Charter or the personal-data consent gives them before paying.
  route('consents/accept', 'routes/consents.accept.tsx'),
  // The MITC on its own (also the last part of the terms): acknowledged separately at onboarding.
  route('mitc', 'routes/mitc.tsx'),
  route('disclaimer', 'routes/disclaimer.tsx'),
  route('grievance-redressal', 'routes/grievance-redressal.tsx'),
  route('privacy-policy', 'routes/privacy-policy.tsx'),
  route('refund-policy', 'routes/refund-policy.tsx'),
  // Everything else: the 404 page inside the full layout.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
