import checkoutScript from './checkout.js?raw'
import { demoSandbox } from '~/server/payments/gateway/choice.server'

/** The sandbox's checkout.js stand-in (app/demo/checkout.js); 404 in a deployment. */
export async function loader() {
  if (!(await demoSandbox())) return new Response('Not Found', { status: 404 })
  return new Response(checkoutScript, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' },
  })
}
