declare module 'react-router' {
  interface AppLoadContext {
    /** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
    cspNonce: string
    /** The client's address as Express sees it (its `trust proxy` setting decides which hop to believe). */
    clientIp: string
  }
}

export {}
