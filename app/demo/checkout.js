// The sandbox's stand-in for Razorpay's checkout.js (demo mode and tests only; served by
// /dev/sandbox/checkout.js, 404 in a deployment). Same contract as the real one for what /pay
// uses: `new Razorpay(options)`, `on('payment.failed', fn)`, `open()`, `close()`, the `handler`
// and `modal.ondismiss` options, `modal.escape`. Payments go through /dev/sandbox/pay, which signs
// them with the sandbox secret, so the store's real verification runs.
;(function () {
  'use strict'

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options)
    if (!options || !options.key) throw new Error('No key passed')
    if (!options.order_id) throw new Error('Invalid options: order_id is required')
    this.options = options
    this.listeners = {}
    this.root = null
  }

  Razorpay.prototype.on = function (event, listener) {
    ;(this.listeners[event] = this.listeners[event] || []).push(listener)
  }

  Razorpay.prototype.emit = function (event, payload) {
    ;(this.listeners[event] || []).forEach(function (listener) {
      listener(payload)
    })
  }

  function element(tag, style, text) {
    var node = document.createElement(tag)
    Object.assign(node.style, style)
    if (text) node.textContent = text
    return node
  }

  function button(label, onClick) {
    var node = element(
      'button',
      {
        padding: '8px 14px',
        borderRadius: '6px',
        border: '1px solid #9ca3af',
        background: '#fff',
        color: '#111',
        font: 'inherit',
        fontWeight: '600',
        cursor: 'pointer',
      },
      label,
    )
    node.type = 'button'
    node.addEventListener('click', onClick)
    return node
  }

  Razorpay.prototype.open = function () {
    // Served to the browser as written (no build step), in ES5: no arrow functions to keep `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    var self = this
    var options = this.options
    if (this.root) return
    var overlay = element('div', {
      position: 'fixed',
      inset: '0',
      zIndex: '50',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      background: 'rgba(0,0,0,0.5)',
      padding: '16px',
    })
    var dialog = element('div', {
      background: '#fff',
      color: '#111',
      borderRadius: '8px',
      padding: '20px',
      maxWidth: '420px',
      width: '100%',
      borderTop: '6px solid ' + ((options.theme && options.theme.color) || '#2196F3'),
    })
    dialog.setAttribute('role', 'dialog')
    dialog.setAttribute('aria-modal', 'true')
    dialog.setAttribute('aria-labelledby', 'sandbox-checkout-title')
    var title = element('h2', { margin: '0', fontSize: '1.25rem' }, 'Sandbox checkout')
    title.id = 'sandbox-checkout-title'
    var amount = element(
      'p',
      { margin: '8px 0 0' },
      'Pay Rs. ' + (Number(options.amount) / 100).toLocaleString('en-IN') + ' to ' + (options.name || ''),
    )
    var order = element('p', { margin: '4px 0 0', fontFamily: 'monospace' }, 'Order ' + options.order_id)
    var status = element('p', { margin: '8px 0 0', minHeight: '1.5em' })
    status.setAttribute('role', 'status')
    var actions = element('div', { display: 'flex', flexWrap: 'wrap', gap: '8px', marginTop: '12px' })

    function pay(outcome) {
      status.textContent = 'Processing…'
      return fetch('/dev/sandbox/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: options.order_id, outcome: outcome }),
      }).then(function (response) {
        if (!response.ok) throw new Error('The sandbox answered ' + response.status)
        return response.json()
      })
    }

    actions.append(
      button('Simulate success', function () {
        pay('captured').then(
          function (body) {
            self.close()
            setTimeout(function () {
              if (options.handler) options.handler(body.razorpayResponse)
            }, 0)
          },
          function (error) {
            status.textContent = error.message
          },
        )
      }),
      button('Simulate failure', function () {
        pay('failed').then(
          function (body) {
            // Like the real checkout with retries on, the dialog stays open for another attempt.
            status.textContent = 'Payment failed. Try again, or close.'
            self.emit('payment.failed', {
              error: {
                code: 'BAD_REQUEST_ERROR',
                description: 'Payment failed',
                source: 'bank',
                step: 'payment_authorization',
                reason: 'payment_failed',
                metadata: { order_id: options.order_id, payment_id: body.razorpayResponse.razorpay_payment_id },
              },
            })
          },
          function (error) {
            status.textContent = error.message
          },
        )
      }),
      button('Close', function () {
        self.dismiss()
      }),
    )
    dialog.append(title, amount, order, status, actions)
    overlay.append(dialog)
    this.onKeyDown = function (event) {
      if (event.key === 'Escape' && !(options.modal && options.modal.escape === false)) self.dismiss()
    }
    document.addEventListener('keydown', this.onKeyDown)
    document.body.append(overlay)
    this.root = overlay
    actions.firstChild.focus()
  }

  Razorpay.prototype.dismiss = function () {
    var options = this.options
    this.close()
    setTimeout(function () {
      if (options.modal && options.modal.ondismiss) options.modal.ondismiss()
    }, 0)
  }

  Razorpay.prototype.close = function () {
    if (!this.root) return
    document.removeEventListener('keydown', this.onKeyDown)
    this.root.remove()
    this.root = null
  }

  window.Razorpay = Razorpay
})()
