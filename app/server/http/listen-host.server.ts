// Where the server listens. Apart from env.server.ts, which parses the environment as it is
// imported: the start scripts need these before that, and must not load it until they can catch
// its one-line error (scripts/environment.ts).

type ListenSettings = { HOST?: string; DEMO_MODE: boolean }

/** Demo mode's default: a demo store shows every sign-in code at /dev/outbox, so only this machine may reach it. */
const DEMO_HOST = '127.0.0.1'

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** Where the server listens: HOST, else loopback in demo mode, else every interface (undefined). */
export function listenHost(env: ListenSettings): string | undefined {
  return env.HOST ?? (env.DEMO_MODE ? DEMO_HOST : undefined)
}

/** Demo mode opened to the network on purpose (HOST beyond loopback with DEMO_MODE=1 set). */
export function isDemoOpenToNetwork(env: ListenSettings): boolean {
  const host = listenHost(env)
  return env.DEMO_MODE && host !== undefined && !isLoopbackHost(host)
}

/**
 * Whether a request's Host header names this machine by a loopback name (localhost, 127.x.x.x or
 * [::1], any port). A demo store on loopback answers only those: a page whose own name was made to
 * point at 127.0.0.1 (DNS rebinding) still sends its own name (docs/architecture.md, The demo store on
 * loopback).
 */
export function isLoopbackHostHeader(hostHeader: string | undefined): boolean {
  const host = (hostHeader ?? '').trim().toLowerCase()
  const name = host.startsWith('[') ? /^\[([^\]]*)\](?::\d+)?$/.exec(host)?.[1] : /^([^:]*)(?::\d+)?$/.exec(host)?.[1]
  return name !== undefined && isLoopbackHost(name)
}

/** Whether the store checks Host headers: demo mode listening on loopback (the default). */
export function answersLoopbackHostsOnly(env: ListenSettings): boolean {
  const host = listenHost(env)
  return env.DEMO_MODE && host !== undefined && isLoopbackHost(host)
}
