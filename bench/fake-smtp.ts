// A mail server for the bench's store (SMTP_URL): it accepts every message on loopback and counts them,
// so the research bench can time the store's e-mail deliveries without sending any.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { onCleanup } from './cleanup'

export type FakeSmtp = {
  url: string
  /** Messages accepted so far. */
  received: () => number
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  let received = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Its reverse DNS look-up of each client would wait on a resolver this closed network does not answer.
    disableReverseLookup: true,
    logger: false,
    // The store keeps its connections open (a pool): at the end, close them after a second, not smtp-server's 30.
    closeTimeout: 1_000,
    onData(stream, _session, callback) {
      stream.resume()
      stream.on('end', () => {
        received++
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, received: () => received }
}
