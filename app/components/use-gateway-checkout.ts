import { useCallback, useEffect, useRef } from 'react'
import type { CheckoutAnswer } from '~/domain/checkout-request'
import { CHECKOUT_METHODS_CONFIG, CHECKOUT_THEME_COLOR, type GatewayCheckout } from '~/domain/gateway-checkout'

/** What checkout.js emits with `payment.failed`. */
export type CheckoutFailure = {
  error?: { description?: string; metadata?: { order_id?: string; payment_id?: string } }
}

type RazorpayInstance = {
  open(): void
  close(): void
  on(event: 'payment.failed', callback: (response: CheckoutFailure) => void): void
}
type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayInstance

export type CheckoutCallbacks = {
  /** checkout.js's success answer, which /pay posts back for verifyCheckoutPayment. */
  onPaid: (response: CheckoutAnswer) => void
  onFailed: (response: CheckoutFailure) => void
  onDismissed: () => void
}

/**
 * Opens the gateway's checkout. Its script is loaded on first use, not with the page, and removed again when the page
 * goes away (as in the original store, docs/product.md section 2), so customers who pay manually never download it.
 * `open` rejects when the script cannot be loaded or refuses the options.
 */
export function useGatewayCheckout() {
  const script = useRef<{ url: string; element: HTMLScriptElement; loaded: Promise<RazorpayConstructor> } | null>(null)
  const instance = useRef<RazorpayInstance | null>(null)

  useEffect(
    () => () => {
      instance.current?.close()
      script.current?.element.remove()
      delete (window as { Razorpay?: unknown }).Razorpay
      script.current = null
    },
    [],
  )

  return useCallback(async (checkout: GatewayCheckout, callbacks: CheckoutCallbacks) => {
    if (script.current?.url !== checkout.scriptUrl) {
      script.current?.element.remove()
      const element = document.createElement('script')
      element.src = checkout.scriptUrl
      const loaded = new Promise<RazorpayConstructor>((resolve, reject) => {
        element.onload = () => {
          const Razorpay = (window as { Razorpay?: RazorpayConstructor }).Razorpay
          if (Razorpay) resolve(Razorpay)
          else reject(new Error('The checkout script loaded without defining Razorpay'))
        }
        element.onerror = () => reject(new Error(`Could not load ${checkout.scriptUrl}`))
      })
      script.current = { url: checkout.scriptUrl, element, loaded }
      document.head.append(element)
    }
    let Razorpay: RazorpayConstructor
    try {
      Razorpay = await script.current.loaded
    } catch (error) {
      // A failed load is not cached: the next attempt adds the script again.
      script.current?.element.remove()
      script.current = null
      throw error
    }
    const razorpay = new Razorpay({
      key: checkout.keyId,
      order_id: checkout.orderId,
      amount: checkout.amountPaise,
      currency: checkout.currency,
      name: checkout.name,
      description: checkout.description,
      prefill: checkout.prefill,
      theme: { color: CHECKOUT_THEME_COLOR },
      config: CHECKOUT_METHODS_CONFIG,
      modal: { escape: false, ondismiss: callbacks.onDismissed },
      handler: callbacks.onPaid,
    })
    razorpay.on('payment.failed', callbacks.onFailed)
    instance.current = razorpay
    razorpay.open()
  }, [])
}
