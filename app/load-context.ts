declare module 'react-router' {
  interface AppLoadContext {
    /** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
    cspNonce: string
  }
}

export {}
