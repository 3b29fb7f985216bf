import { getErrorMessage } from '~/domain/error-message'
import { env } from '../../env.server'
import { razorpayGateway, type PaymentGateway } from './razorpay.server'
import { assertSandboxAllowed, SANDBOX_KEY_ID, sandboxSecrets, type SandboxGateway } from './sandbox.server'

// Which gateway this process pays through: the real Razorpay when its key is configured, else the
// sandbox (demo mode and tests), loaded by the one dynamic import below so that a deployment, whose
// dev dependencies (msw) are pruned, never loads it.

let sandboxLoading: Promise<SandboxGateway> | undefined

function loadSandbox(): Promise<SandboxGateway> {
  return (sandboxLoading ??= import('~/demo/razorpay-sandbox.server').then(
    (sandbox) => sandbox.sandboxGateway(),
    (error: unknown) => {
      sandboxLoading = undefined
      const detail = getErrorMessage(error)
      throw new Error(
        `The sandbox payment gateway could not load (it needs the msw package: run npm install): ${detail}`,
      )
    },
  ))
}

/**
 * The gateway without RAZORPAY keys. Its keys are known at once (checkout options need them); the
 * fake API is installed on the first call to the gateway, by loading the sandbox module.
 */
function lazySandboxGateway(): PaymentGateway {
  assertSandboxAllowed(env)
  return {
    name: 'sandbox',
    keyId: SANDBOX_KEY_ID,
    ...sandboxSecrets(),
    createOrder: async (input) => (await loadSandbox()).createOrder(input),
    fetchOrderPayments: async (orderId) => (await loadSandbox()).fetchOrderPayments(orderId),
    fetchPayment: async (paymentId) => (await loadSandbox()).fetchPayment(paymentId),
    refundPayment: async (input) => (await loadSandbox()).refundPayment(input),
    createPlan: async (input) => (await loadSandbox()).createPlan(input),
    createSubscription: async (input) => (await loadSandbox()).createSubscription(input),
    fetchSubscription: async (id) => (await loadSandbox()).fetchSubscription(id),
    cancelSubscription: async (id) => (await loadSandbox()).cancelSubscription(id),
  }
}

let configuredGateway: PaymentGateway | undefined

/** The real Razorpay when its key is configured (always in a deployment: env validation requires it), else the sandbox. */
export function paymentGateway(): PaymentGateway {
  if (configuredGateway) return configuredGateway
  if (env.RAZORPAY_KEY_ID) {
    if (!env.RAZORPAY_KEY_SECRET || !env.RAZORPAY_WEBHOOK_SECRET) {
      throw new Error('RAZORPAY_KEY_ID is set but RAZORPAY_KEY_SECRET or RAZORPAY_WEBHOOK_SECRET is not')
    }
    configuredGateway = razorpayGateway({
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
    })
  } else {
    configuredGateway = lazySandboxGateway()
  }
  return configuredGateway
}

/**
 * The sandbox this process pays through, for the demo's stand-ins for checkout.js and Razorpay's
 * servers (/dev/sandbox/*); null in a deployment (DEMO_MODE=0) or when the real gateway is configured.
 */
export async function demoSandbox(): Promise<SandboxGateway | null> {
  if (!env.DEMO_MODE && env.NODE_ENV !== 'test') return null
  if (paymentGateway().name !== 'sandbox') return null
  return loadSandbox()
}
