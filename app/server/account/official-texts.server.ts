import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { OFFICIAL_TEXT_FILES, officialTextProblem, type OfficialTexts } from '~/domain/official-texts'
import { env, EnvError } from '../env.server'

/**
 * Reads OFFICIAL_TEXTS_DIR (docs/regulatory.md, "Official texts"): each known file it holds, checked; anything else in
 * it, an empty or oversized file, or a folder that is not there stops the start with a one-line EnvError.
 */
export function readOfficialTexts(folder: string | undefined): OfficialTexts {
  if (!folder) return {}
  let names: string[]
  try {
    if (!statSync(folder).isDirectory()) throw new Error('not a folder')
    names = readdirSync(folder)
  } catch {
    throw new EnvError(`Invalid environment variable OFFICIAL_TEXTS_DIR: ${folder} is not a readable folder`)
  }
  const texts: OfficialTexts = {}
  for (const name of names.filter((entry) => !entry.startsWith('.'))) {
    const bytes = readFileSync(join(folder, name))
    const problem = officialTextProblem(name, bytes)
    if (problem) throw new EnvError(`Invalid environment variable OFFICIAL_TEXTS_DIR: ${folder} ${problem}`)
    for (const [kind, file] of Object.entries(OFFICIAL_TEXT_FILES) as [keyof OfficialTexts, string][]) {
      if (file === name) texts[kind] = new TextDecoder().decode(bytes).trim()
    }
  }
  return texts
}

/** The official texts of this store, read once when it starts. */
export const officialTexts: OfficialTexts = readOfficialTexts(env.OFFICIAL_TEXTS_DIR)
