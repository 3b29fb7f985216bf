import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import path from 'node:path'
import { canonicalResearchContent, formatFingerprint, type ResearchRecord } from '~/domain/research'
import { readOrCreateDemoSecret } from '../demo-secret.server'
import { env, type Env } from '../env.server'

// Published research is signed with Ed25519 (decision 028): the key is RESEARCH_SIGNING_KEY, 32
// random bytes in base64 (the private key's seed); demo mode and tests use a key made once per data
// folder, beside the demo session key.

/** The PKCS#8 wrapping of an Ed25519 seed (RFC 8410), so node:crypto takes the 32 bytes as a key. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SEED_BYTES = 32

export type ResearchSigningKey = {
  privateKey: KeyObject
  publicKey: KeyObject
  /** The public key as PEM (SubjectPublicKeyInfo), as /disclosure shows it. */
  publicKeyPem: string
  /** SHA-256 of the public key's DER, first 16 bytes in hex: what each item names. */
  fingerprint: string
}

/** A key from its 32-byte seed written in base64 or base64url. */
export function researchSigningKeyFromSeed(seedText: string): ResearchSigningKey {
  const seed = Buffer.from(seedText.trim(), 'base64')
  if (seed.length !== SEED_BYTES) throw new Error(`A research signing key is ${SEED_BYTES} bytes in base64`)
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  })
  const publicKey = createPublicKey(privateKey)
  return { privateKey, publicKey, ...describePublicKey(publicKey) }
}

export function describePublicKey(publicKey: KeyObject): { publicKeyPem: string; fingerprint: string } {
  const der = publicKey.export({ format: 'der', type: 'spki' })
  return {
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    fingerprint: createHash('sha256').update(der).digest('hex').slice(0, 32),
  }
}

/** Beside the demo session key: `.data/demo-research-key`, made once per data folder. */
export function demoResearchKeyFile(settings: Pick<Env, 'EMBEDDED_PG_DIR'>): string {
  return path.join(path.dirname(settings.EMBEDDED_PG_DIR), 'demo-research-key')
}

let configured: ResearchSigningKey | undefined

/** The store's key: RESEARCH_SIGNING_KEY (required with DEMO_MODE=0), else the data folder's demo key. */
export function researchSigningKey(): ResearchSigningKey {
  configured ??= researchSigningKeyFromSeed(
    env.RESEARCH_SIGNING_KEY ?? readOrCreateDemoSecret(demoResearchKeyFile(env)),
  )
  return configured
}

/** What /disclosure shows of the store's key. */
export function researchPublicKey(): { publicKeyBase64: string; fingerprint: string } {
  const key = researchSigningKey()
  return {
    publicKeyBase64: key.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    fingerprint: formatFingerprint(key.fingerprint),
  }
}

export type ResearchSignature = { contentSha256: string; signature: string; signingKeyFingerprint: string }

export function signResearch(
  record: ResearchRecord,
  key: ResearchSigningKey = researchSigningKey(),
): ResearchSignature {
  const content = Buffer.from(canonicalResearchContent(record), 'utf8')
  return {
    contentSha256: createHash('sha256').update(content).digest('hex'),
    signature: sign(null, content, key.privateKey).toString('base64'),
    signingKeyFingerprint: key.fingerprint,
  }
}

/** True when `signature` is the key's signature of the record as it stands now. */
export function verifyResearch(record: ResearchRecord, signature: string, publicKey: KeyObject): boolean {
  const content = Buffer.from(canonicalResearchContent(record), 'utf8')
  return verify(null, content, publicKey, Buffer.from(signature, 'base64'))
}
