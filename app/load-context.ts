declare module 'react-router' {
  interface AppLoadContext {
    /** Per-request nonce that the Content-Security-Policy allows for inline scripts. */
    cspNonce: string
    /** The client's address as Express sees it (its `trust proxy` setting decides which hop to believe). */
    clientIp: string
    /**
     * On a request for a page's HTML (not its `.data`): what loaders set aside to render into the
     * markup but leave out of the loader data (app/server/http/html-only.server.ts, decision 044).
     */
    htmlOnly?: Map<string, unknown>
  }
}

export {}
