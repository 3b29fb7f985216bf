// `npm run research:verify -- FILE [--key PUBLIC_KEY]`: checks every signed record of an audit pack
// (docs/research.md, "Audit pack") against the key inside it and, with --key, against the store's
// published key (a PEM file, or the base64 that /disclosure shows). Names each altered record; exit 1.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parsePublicKey, verifyAuditPack } from '../app/server/research/audit-pack-verify.server'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { key: { type: 'string' } },
})

function fail(message: string): never {
  console.error(`research:verify: ${message}`)
  process.exit(2)
}

const file = positionals[0]
if (!file || positionals.length > 1) fail('name one audit pack: npm run research:verify -- pack.zip [--key key.pem]')

let givenKey
if (values.key) {
  let text = values.key
  try {
    text = readFileSync(values.key, 'utf8')
  } catch {
    // Not a file: the key itself, as /disclosure shows it.
  }
  try {
    givenKey = parsePublicKey(text)
  } catch {
    fail('--key is neither a PEM public key file nor the base64 public key /disclosure shows')
  }
}

let result
try {
  result = await verifyAuditPack(file, { givenKey })
} catch (error) {
  fail(`${file} is not a readable zip (${error instanceof Error ? error.message : String(error)})`)
}

console.log(`Pack: ${file}`)
console.log(`Key in the pack: ${result.fingerprint ?? 'none'}`)
if (result.matchesGivenKey !== null)
  console.log(`Key given: ${result.matchesGivenKey ? 'the same key' : 'a DIFFERENT key'}`)
console.log(`Records: ${result.records}, altered: ${result.altered.length}`)
for (const record of result.altered)
  console.log(
    `ALTERED record ${record.id ?? '(no id)'} (records.jsonl line ${record.line}${record.title === null ? '' : `, "${record.title}"`}): ${record.problems.join('; ')}`,
  )
if (result.attachmentsChecked > 0)
  console.log(`Attachments: ${result.attachmentsChecked} PDF(s) in the pack hashed against their signed SHA-256`)
for (const record of result.attachmentsNotIncluded)
  console.log(
    `Attachment of record ${record.id} ("${record.title}") is not included in the pack: only its signed SHA-256 is checked`,
  )
for (const problem of result.problems) console.log(`PROBLEM: ${problem}`)
console.log(result.ok ? 'OK: every record is as it was signed.' : 'FAILED: the pack does not verify.')
process.exit(result.ok ? 0 : 1)
